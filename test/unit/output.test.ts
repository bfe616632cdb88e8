import type { IDataObject } from 'n8n-workflow';

import { outputShaper } from '../../nodes/AgencyCrm/actions/output';
import { WriteOrder } from '../../nodes/AgencyCrm/actions/writeOrder';
import { prepareRequest } from '../../nodes/AgencyCrm/actions/prepareRequest';
import type { ItemRun } from '../../nodes/AgencyCrm/actions/itemRun';
import { findEndpoint } from '../../nodes/AgencyCrm/catalogue';
import { fakeContext } from '../support/fakeN8n';

/** Issue 17, point 8: Simplified never loses data because a guessed key was absent. */
async function shape(parameters: IDataObject, records: IDataObject[]) {
	const item: ItemRun = { index: 0, turn: new WriteOrder().reserve(0), notices: [] };
	const endpoint = findEndpoint('customer', 'get')!;
	const customerId = { __rl: true, mode: 'id', value: '7' };
	const request = await prepareRequest(fakeContext({ parameters: { customerId, ...parameters } }).execute, endpoint, 0);
	const shaper = outputShaper(endpoint, request, item);
	return { output: records.map(shaper), notices: item.notices };
}

const contact = {
	customers_id: 7,
	agency_id: 101,
	firstname: 'Ana',
	lastname: 'Martin',
	email: 'ana@example.com',
	phone: null,
	mobile_phone: '0611223344',
	type: 'buyer',
	updated_at: '2026-05-01T10:00:00Z',
	created_at: '2026-01-01T10:00:00Z',
	group_ids: [1],
};

test('a record with the keys expected: the main keys only, no hint', async () => {
	const { output, notices } = await shape({ output: 'simple' }, [contact]);
	expect(Object.keys(output[0])).not.toContain('group_ids');
	expect(output[0]).toMatchObject({ customers_id: 7, email: 'ana@example.com' });
	expect(notices).toEqual([]);
});

test("production's contact keys (id, mobilePhone) count as the spec's: Simplified keeps them under their own names", async () => {
	const { customers_id: _id, mobile_phone: mobile, ...rest } = contact;
	const { output, notices } = await shape({ output: 'simple' }, [{ ...rest, id: 7, mobilePhone: mobile, groups: [1] }]);
	expect(output[0]).toMatchObject({ id: 7, mobilePhone: mobile, email: 'ana@example.com' });
	expect(notices).toEqual([]);
});

test('records named otherwise (an API with other keys): whole, and one hint for the item', async () => {
	const other = { ident: 7, first_name: 'Ana', last_name: 'Martin', mail: 'ana@example.com', mobile: '0611223344' };
	const { output, notices } = await shape({ output: 'simple' }, [other, { ...other, ident: 8 }]);
	expect(output).toEqual([other, { ...other, ident: 8 }]);
	expect(notices).toEqual([expect.stringContaining('records came without most of the keys it keeps')]);
});

test('the identifier missing is enough: the record comes out whole', async () => {
	const { customers_id: _id, ...withoutId } = contact;
	expect((await shape({ output: 'simple' }, [withoutId])).output).toEqual([withoutId]);
});

test('Selected Fields keeps what the user chose, even when absent, and the ID under the name the API gave it', async () => {
	const { output, notices } = await shape({ output: 'fields', fields: ['nickname'] }, [{ id: 7, mail: 'x' }]);
	expect(output).toEqual([{ id: 7 }]);
	expect(notices).toEqual([]);
});
