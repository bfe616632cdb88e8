import type { IExecuteFunctions } from 'n8n-workflow';

import { listRecords } from '../../shared/transport';
import type { CriterionRow } from '../catalogue/criteria/field';
import type { SiteCriteria, SiteCriterion, SiteValue } from '../catalogue/criteria/site';
import { NOTHING_READ, findCriterion, isListCriterion } from '../catalogue/criteria/site';
import { requestOf } from '../catalogue/requests';
import type { CriteriaSpec } from '../catalogue/types';
import { endpointOfItem } from './parameters';
import { criteriaRowsOf, planOf, readInputs } from './prepareRequest';

/**
 * The site's criteria a run needs, read once before its first item, so that each item's plan resolves
 * its criteria without I/O (actions/prepareRequest.ts): the referential of each kind of criteria the
 * items name, then the values of each list criterion they name (a search-request criterion's are those
 * of the property criterion of the same key). What an item refused names is not read: refused, an
 * item sends nothing. A referential that cannot be read says why, for each item's hint; values that
 * cannot be read are none (the value is sent as given).
 */

type Referential = CriteriaSpec['referential'];

const REFERENTIALS: Record<Referential, string> = {
	product: 'criterion:getProductCriteria',
	searchRequest: 'criterion:getSearchRequestCriteria',
};

/** The criteria one item names, learnt from its plan without the site's: none when it names none or is refused. */
async function criteriaNamedBy(context: IExecuteFunctions, itemIndex: number) {
	try {
		const endpoint = endpointOfItem(context, itemIndex);
		if (!endpoint.criteria) return [];
		const env = { timezone: context.getTimezone() };
		const inputs = await readInputs(context, endpoint, itemIndex, env);
		planOf(endpoint, inputs, env, NOTHING_READ);
		const spec = endpoint.criteria;
		return criteriaRowsOf(endpoint, inputs).map((row) => ({ spec, row }));
	} catch {
		return [];
	}
}

async function readReferential(context: IExecuteFunctions, name: Referential) {
	return await listRecords(context, requestOf(REFERENTIALS[name])).catch((error: Error) => ({
		unreadable: error.message,
	}));
}

/** The values of each list criterion, read from the property criterion that holds them; those unread are left out. */
async function valuesOf(context: IExecuteFunctions, holders: ReadonlyMap<SiteCriterion, SiteCriterion>) {
	const distinct = [...new Set(holders.values())];
	const read = await Promise.all(
		distinct.map((holder) =>
			listRecords(
				context,
				requestOf('criterion:getProductCriterionValues', { pathParams: { criteriaId: holder.id } }),
			).catch(() => undefined),
		),
	);
	const values = new Map<SiteCriterion, SiteValue[]>();
	for (const [criterion, holder] of holders) {
		const found = read[distinct.indexOf(holder)];
		if (found) values.set(criterion, found);
	}
	return values;
}

/** The site's criteria the run's items name (nothing read when they name none). */
export async function siteCriteriaOf(context: IExecuteFunctions, itemCount: number): Promise<SiteCriteria> {
	const named: Array<{ spec: CriteriaSpec; row: CriterionRow }> = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++)
		named.push(...(await criteriaNamedBy(context, itemIndex)));
	if (!named.length) return NOTHING_READ;
	const referentials: SiteCriteria['referentials'] = {};
	const listed = async (name: Referential): Promise<readonly SiteCriterion[]> => {
		const read = (referentials[name] ??= await readReferential(context, name));
		return 'unreadable' in read ? [] : read;
	};
	for (const { spec } of named) await listed(spec.referential);
	// Each list criterion named, with the property criterion whose values it has: itself, or the one of its key.
	const holders = new Map<SiteCriterion, SiteCriterion>();
	for (const { spec, row } of named) {
		const { criterion } = findCriterion(await listed(spec.referential), row);
		if (!criterion || !isListCriterion(criterion) || holders.has(criterion)) continue;
		const holder =
			spec.referential === 'product'
				? criterion
				: (await listed('product')).find((candidate) => candidate.xml === criterion.xml);
		if (holder) holders.set(criterion, holder);
	}
	return { referentials, values: await valuesOf(context, holders) };
}
