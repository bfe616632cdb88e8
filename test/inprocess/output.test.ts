import { runNode } from '../support/inprocess/bulk';
import { useSandbox } from '../support/sandbox/harness';
import { byId } from '../../tools/n8n/workflows';

/**
 * Output against the sandbox: Simplified, Raw, and the Simplify switch of 0.1.0, which Output
 * replaced: a workflow saved under 0.1.0 with Simplify off still gets whole records.
 */
const h = useSandbox();
const CUSTOMER = 10001;

const getCustomer = (parameters: Record<string, unknown>) => ({
	resource: 'customer',
	operation: 'get',
	customerId: byId(CUSTOMER),
	...parameters,
});

async function outputKeys(parameters: Record<string, unknown>) {
	const { output } = await runNode(h.origin, [getCustomer(parameters)]);
	return Object.keys(output[0].json).sort();
}

test("0.1.0's Simplify off gives the API's whole record, as Raw does; on, or absent, the simplified one", async () => {
	// Every read of a contact loads its origin and groups (issue 26): the whole record is what that read answers.
	const read = await h.api('GET', `/customers/${CUSTOMER}`, { query: { include: 'origin,groups' } });
	const whole = Object.keys(read.body.data).sort();
	const simplified = await outputKeys({ output: 'simple' });
	expect(simplified.length).toBeLessThan(whole.length);
	expect(await outputKeys({ output: 'raw' })).toEqual(whole);
	expect(await outputKeys({ output: 'simple', simplify: false })).toEqual(whole);
	expect(await outputKeys({ output: 'simple', simplify: true })).toEqual(simplified);
	// A choice made in the Output list wins over the switch it replaced.
	// Selected Fields: the ID under both its names, the field chosen, and the related data always loaded.
	expect(await outputKeys({ output: 'fields', fields: ['email'], simplify: false })).toEqual([
		'customers_id',
		'email',
		'groups',
		'id',
		'origin',
	]);
});
