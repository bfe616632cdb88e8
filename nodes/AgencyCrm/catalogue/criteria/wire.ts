import type { IDataObject } from 'n8n-workflow';

import type { CriteriaSpec, Problem } from '../types';
import type { CriterionRow } from './field';
import type { ResolvedRow } from './resolve';
import { resolveRow, unreadableReferential } from './resolve';
import type { SiteCriteria } from './site';
import { findCriterion, folded } from './site';

/** An item's criteria on the wire: resolved rows, each criterion once on a write, after what Extra Body Fields give. */

/** A listing shows in the CRM only when this criterion has this code (docs/assumptions.md "Production evidence"). */
const LISTING_SHOWN = { xml: 'Statut', code: 'EnCours' };

/**
 * A write names each criterion once: where two inputs give the same one (version 1's Property Type and
 * a TypeBien row), the later is sent, with a notice, and what the other would have said is dropped.
 * Searches keep every row (a price at least and at most).
 */
function oncePerCriterion(
	spec: CriteriaSpec,
	rows: readonly CriterionRow[],
	resolved: readonly ResolvedRow[],
): { kept: ResolvedRow[]; notices: string[] } {
	if (spec.operators) return { kept: [...resolved], notices: [] };
	const lastOf = new Map(resolved.map((row, index) => [folded(row.wire.id), index]));
	const notices = resolved.flatMap((row, index) => {
		const last = lastOf.get(folded(row.wire.id))!;
		return last === index
			? []
			: [
					`${rows[index].label} and ${rows[last].label} both give ${String(row.wire.id)}: ${rows[last].label}'s value is sent`,
				];
	});
	return { kept: resolved.filter((row, index) => lastOf.get(folded(row.wire.id)) === index), notices };
}

/**
 * Where the rows go: after the list Extra Body Fields give at the spec's key (never replacing it),
 * or, for buyer leads, as one more search request of that list.
 */
function placeCriteria(spec: CriteriaSpec, body: IDataObject, rows: IDataObject[]): IDataObject {
	const result: IDataObject = { ...body };
	const keys = spec.key.split('.');
	let parent = result;
	for (const key of keys.slice(0, -1)) {
		const nested = parent[key];
		parent[key] = typeof nested === 'object' && nested !== null && !Array.isArray(nested) ? { ...nested } : {};
		parent = parent[key] as IDataObject;
	}
	const last = keys[keys.length - 1];
	const existing = Array.isArray(parent[last]) ? (parent[last] as IDataObject[]) : [];
	parent[last] = spec.asSearchRequest ? [...existing, { criteria: rows }] : [...existing, ...rows];
	return result;
}

/** A new listing's status: a notice unless it is the one under which listings show in the CRM. */
function listingShownNotice(spec: CriteriaSpec, rows: IDataObject[]): string | undefined {
	if (!spec.newListing) return undefined;
	const status = rows.find((row) => folded(row.id) === folded(LISTING_SHOWN.xml));
	if (status && String(status.value) === LISTING_SHOWN.code) return undefined;
	const now = status
		? `its ${LISTING_SHOWN.xml} is ${String(status.value)}`
		: `no ${LISTING_SHOWN.xml} criterion was given`;
	return `The new listing will not show in the CRM: a listing shows there only when its ${LISTING_SHOWN.xml} criterion is ${LISTING_SHOWN.code}, and ${now}`;
}

/** What an item's criteria give: the body with them placed, what the user is told, and what problemsOf judges. */
export interface CriteriaOnTheWire {
	body: IDataObject;
	notices: string[];
	problems: Problem[];
}

/**
 * The rows an item gives, on the wire: each resolved against the site's criteria that the run read
 * before its first item (a referential not read, or unreadable, leaves them as typed), each criterion
 * once on a write, placed where the spec says in the body.
 */
export function criteriaOnTheWire(
	spec: CriteriaSpec,
	rows: readonly CriterionRow[],
	site: SiteCriteria,
	body: IDataObject,
): CriteriaOnTheWire {
	const read = site.referentials[spec.referential];
	const listed = read && !('unreadable' in read) ? read : undefined;
	const resolved = rows.map((row) => {
		if (!listed) return resolveRow(spec, row, {});
		const found = findCriterion(listed, row);
		return resolveRow(spec, row, found, found.criterion && site.values.get(found.criterion));
	});
	const { kept, notices: repeats } = oncePerCriterion(spec, rows, resolved);
	const wires = kept.map((row) => row.wire);
	const placed = placeCriteria(spec, body, wires);
	if (!listed) {
		const unread = read && 'unreadable' in read ? [unreadableReferential(read.unreadable)] : [];
		return { body: placed, notices: repeats, problems: unread };
	}
	const shown = listingShownNotice(spec, wires);
	return {
		body: placed,
		notices: [...kept.flatMap((row) => row.notices), ...repeats, ...(shown ? [shown] : [])],
		problems: kept.flatMap((row) => row.hints),
	};
}
