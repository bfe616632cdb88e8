import type { IDataObject } from 'n8n-workflow';

import { isAbsent } from '../rules';
import type { CriteriaSpec } from '../types';
import type { CriterionRow } from './field';

/**
 * The site's criteria as its referential lists them (`GET /criterias/product/all`,
 * `GET /criterias/search-requests`) and a list criterion's values: how a row's criterion and value
 * are recognised in them. Pure: the run reads them before its first item (actions/siteCriteria.ts).
 */

/** A criterion as the referential lists it; production's keys, read loosely. */
export type SiteCriterion = IDataObject;
/** A list criterion's value as `GET /criterias/product/{id}/values` lists it: `model` is its code. */
export type SiteValue = IDataObject;

/**
 * What the run read of the site's criteria, before its first item: each referential its items' criteria
 * name (or why it could not be read), and the values of each list criterion they name, by the criterion
 * as its referential lists it (none where they could not be read).
 */
export interface SiteCriteria {
	referentials: Partial<Record<CriteriaSpec['referential'], readonly SiteCriterion[] | { unreadable: string }>>;
	values: ReadonlyMap<SiteCriterion, readonly SiteValue[]>;
}

/** Nothing read: an operation without criteria, or an item planned to learn which criteria it names. */
export const NOTHING_READ: SiteCriteria = { referentials: {}, values: new Map() };

/** Letters and digits only, lower case, accents dropped: `Nb Pièces` and `nbpieces` compare equal. */
export function folded(value: unknown): string {
	return String(value ?? '')
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[^A-Za-z0-9]/g, '')
		.toLowerCase();
}

const xmlOf = (criterion: SiteCriterion) => (isAbsent(criterion.xml) ? undefined : String(criterion.xml));
/** A list value's code: production's `model`, else the value or its id. */
export const codeOf = (value: SiteValue) => String(value.model ?? value.value ?? value.id);

/** What is sent for a criterion: its XML key when it has one, else its id. */
export const wireIdOf = (criterion: SiteCriterion) => xmlOf(criterion) ?? (criterion.id as string | number);

/** Whether the criterion's values are a list of codes. */
export const isListCriterion = (criterion: SiteCriterion) => ['UNIQUE', 'MULTIPLE'].includes(typeOf(criterion));

export const typeOf = (criterion: SiteCriterion | undefined) => String(criterion?.type ?? '').toUpperCase();

/** The criterion a row names, and how it was recognised when not by its key or id. */
export function findCriterion(
	criteria: readonly SiteCriterion[],
	row: CriterionRow,
): { criterion?: SiteCriterion; notice?: string } {
	for (const key of row.candidates ?? []) {
		const criterion = criteria.find((candidate) => folded(xmlOf(candidate)) === folded(key));
		if (criterion) return { criterion };
	}
	const given = String(row.id ?? '').trim();
	const exact = criteria.find((candidate) => xmlOf(candidate) === given || String(candidate.id) === given);
	if (exact) return { criterion: exact };
	const byKey = criteria.find((candidate) => folded(xmlOf(candidate)) === folded(given));
	if (byKey) return { criterion: byKey };
	const byLabel = criteria.find((candidate) => folded(candidate.label) === folded(given) && folded(given) !== '');
	if (byLabel)
		return {
			criterion: byLabel,
			notice: `${row.label}: "${given}" is the label of the criterion ${wireIdOf(byLabel)}`,
		};
	return {};
}
