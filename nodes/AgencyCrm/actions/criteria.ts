import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listRecords } from '../../shared/transport';
import type { CriteriaSpec, SiteCriterion } from '../catalogue/criteria';
import {
	UNREADABLE_REFERENTIAL,
	findCriterion,
	isListCriterion,
	listingShownNotice,
	placeCriteria,
	oncePerCriterion,
	resolveRow,
} from '../catalogue/criteria';
import { requestOf } from '../catalogue/requests';
import type { Endpoint, PreparedRequest, Problem, RequestParts } from '../catalogue/types';

/**
 * The criteria an item typed, resolved against the site's referential before sending: the criterion
 * by its XML key (a label or numeric id given is mapped), a list value by its code (a label or value
 * id given is mapped, with a notice; a code the site does not list is sent as given, with a hint),
 * numbers, yes/no and dates in their format; then placed where the endpoint's `criteria` says
 * (catalogue/criteria.ts), after what Extra Body Fields give there. The referential and each list
 * criterion's values are read at most once per run, whatever the number of items.
 */

/** The lists read in one run (one node execution), by catalogue entry and path: shared by its items. */
const runs = new WeakMap<object, Map<string, Promise<IDataObject[]>>>();

function readOnce(context: IExecuteFunctions, key: string, parts: RequestParts = {}): Promise<IDataObject[]> {
	let lists = runs.get(context);
	if (!lists) runs.set(context, (lists = new Map()));
	const name = `${key} ${JSON.stringify(parts)}`;
	let list = lists.get(name);
	if (!list) {
		list = listRecords(context, requestOf(key, parts));
		lists.set(name, list);
	}
	return list;
}

const REFERENTIALS: Record<CriteriaSpec['referential'], string> = {
	product: 'criterion:getProductCriteria',
	searchRequest: 'criterion:getSearchRequestCriteria',
};

/**
 * A list criterion's values (codes): those of the property criterion of the same key, for a
 * search-request criterion too. None when the criterion is no list or its values cannot be read.
 */
async function valuesOf(context: IExecuteFunctions, spec: CriteriaSpec, criterion: SiteCriterion) {
	if (!isListCriterion(criterion)) return undefined;
	const products = await readOnce(context, REFERENTIALS.product);
	const product =
		spec.referential === 'product' ? criterion : products.find((candidate) => candidate.xml === criterion.xml);
	if (!product) return undefined;
	try {
		return await readOnce(context, 'criterion:getProductCriterionValues', { pathParams: { criteriaId: product.id } });
	} catch {
		return undefined;
	}
}

/**
 * The one call that resolves and places an item's criteria (none typed: the request as it is), with
 * its notices (a label mapped to its code, a listing that will not show) and hints (what the site
 * does not list, sent as given).
 */
export async function resolveCriteria(
	context: IExecuteFunctions,
	endpoint: Endpoint,
	request: PreparedRequest,
): Promise<PreparedRequest> {
	const spec = endpoint.criteria;
	const rows = request.criteria ?? [];
	if (!spec || !rows.length) return request;
	let criteria: SiteCriterion[];
	try {
		criteria = await readOnce(context, REFERENTIALS[spec.referential]);
	} catch (error) {
		const unread: Problem = {
			field: '"Criteria"',
			message: `could not be checked against the site's criteria, which could not be read (${(error as Error).message})`,
			source: UNREADABLE_REFERENTIAL,
		};
		const typed = oncePerCriterion(
			spec,
			rows,
			rows.map((row) => resolveRow(spec, row, {})),
		);
		return {
			...request,
			criteria: undefined,
			body: placeCriteria(
				spec,
				request.body,
				typed.kept.map((row) => row.wire),
			),
			hints: [...request.hints, unread],
			notices: [...request.notices, ...typed.notices],
		};
	}
	const resolved = await Promise.all(
		rows.map(async (row) => {
			const found = findCriterion(criteria, row);
			const values = found.criterion && (await valuesOf(context, spec, found.criterion));
			return resolveRow(spec, row, found, values);
		}),
	);
	const { kept, notices: repeats } = oncePerCriterion(spec, rows, resolved);
	const wires = kept.map((row) => row.wire);
	const shown = listingShownNotice(spec, wires);
	return {
		...request,
		criteria: undefined,
		body: placeCriteria(spec, request.body, wires),
		hints: [...request.hints, ...kept.flatMap((row) => row.hints)],
		notices: [...request.notices, ...kept.flatMap((row) => row.notices), ...repeats, ...(shown ? [shown] : [])],
	};
}
