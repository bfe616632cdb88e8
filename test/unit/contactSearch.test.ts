import type { IDataObject } from 'n8n-workflow';

import { route } from '../../nodes/AgencyCrm/actions/router';
import type { ScriptedAnswer } from '../support/fakeN8n';
import { fakeContext, ok } from '../support/fakeN8n';

/**
 * Contact → Get Many as production's search answers it (issue 32, point 4): the phone filter in the
 * national form, and only the exact hits kept unless Exact Matches Only is off, with a hint counting
 * those left out.
 */

const contact = (id: number, fields: IDataObject) => ({ id, agency_id: 101, type: 'buyer', ...fields });
const page = (records: IDataObject[]) => ok({ data: records, meta: { has_more: false, next_cursor: null } });

async function getMany(filters: IDataObject, options: IDataObject, answers: ScriptedAnswer[]) {
	const fake = fakeContext({
		typeVersion: 2,
		answers,
		parameters: {
			resource: 'customer',
			operation: 'getAll',
			returnAll: true,
			filters,
			options: { output: 'raw', ...options },
		},
	});
	const [output] = await route.call(fake.execute);
	return { ids: output.map((item) => item.json.id), requests: fake.requests(), hints: fake.hints };
}

const loose = page([
	contact(3, { email: 'ana.martin@example.com', phone: '0612345678' }),
	contact(2, { email: 'ANA@example.com ', mobile_phone: '+33 6 12 34 56 79' }),
	contact(1, { email: 'ana@example.com', phone: '06 12 34 56 78' }),
]);

test('a phone filter is sent in the national form production searches, and only the contacts holding it are kept', async () => {
	const { ids, requests, hints } = await getMany({ phone: '+33 6 12 34 56 78' }, {}, [loose]);
	expect(requests[0].body).toEqual({ phone: '0612345678', per_page: 200 });
	expect(ids).toEqual([3, 1]);
	expect(hints.map((hint) => hint.message)).toEqual([
		"The search returned 1 contact that is not an exact match of the phone 0612345678 (Agency CRM's search is not exact): left out. Turn off Exact Matches Only to get them (item 0).",
	]);
});

test('an email filter keeps the contacts with that email, case and spaces aside', async () => {
	const { ids } = await getMany({ email: 'Ana@Example.com' }, {}, [loose]);
	expect(ids).toEqual([2, 1]);
});

test('Exact Matches Only off: every hit the search returns', async () => {
	const { ids, hints } = await getMany({ email: 'ana@example.com' }, { exactMatchesOnly: false }, [loose]);
	expect(ids).toEqual([3, 2, 1]);
	expect(hints).toEqual([]);
});
