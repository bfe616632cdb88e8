import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { AgencyCrmApi } from '../../credentials/AgencyCrmApi.credentials';
import { AgencyCrm } from '../../nodes/AgencyCrm/AgencyCrm.node';
import { AgencyCrmTrigger } from '../../nodes/AgencyCrmTrigger/AgencyCrmTrigger.node';
import { ENDPOINTS } from '../../nodes/AgencyCrm/catalogue';
import savedParameters from '../support/fixtures/agencyCrm-0.1.0-parameters.json';
import type { ParameterShape, ParameterShapes } from '../support/parameterShapes';
import { parameterShapes } from '../support/parameterShapes';

/**
 * What users see in the editor, read off the generated descriptions (the real editor shows the same
 * in test/real-n8n/editor.test.ts): their words for resources and events, the match keys first on
 * the contact forms, data apart from settings in version 2, version 1 as 0.1.0 saved it, and a
 * credential that starts empty.
 */

const node = new AgencyCrm().description;
const properties = node.properties;

/** The parameters the editor shows, in order, for one operation of one version (the notice aside). */
function form(resource: string, operation: string, version: number): INodeProperties[] {
	return properties.filter((property) => {
		const show = property.displayOptions?.show;
		return (
			(show?.resource as string[] | undefined)?.includes(resource) &&
			(show?.operation as string[] | undefined)?.includes(operation) &&
			(show?.['@version'] as number[] | undefined)?.includes(version)
		);
	});
}

const resourceOptions = properties.find((property) => property.name === 'resource')!.options as Array<{
	name: string;
	value: string;
	description: string;
}>;

describe('names in the users’ words, values unchanged', () => {
	test('Contact, Property and Activity hold the API values customer, product and action', () => {
		const byValue = Object.fromEntries(resourceOptions.map((option) => [option.value, option.name]));
		expect(byValue).toMatchObject({ customer: 'Contact', product: 'Property', action: 'Activity' });
	});

	test('no resource is named "Action": the nodes panel would head its operations "Action actions"', () => {
		expect(resourceOptions.map((option) => `${option.name} actions`)).not.toContain('Action actions');
	});

	test('a renamed resource names the API word once in its description', () => {
		const renamed = { customer: "the API's customers", product: "the API's products", action: "the API's actions" };
		for (const [value, apiWords] of Object.entries(renamed)) {
			const { description } = resourceOptions.find((option) => option.value === value)!;
			expect(description.split(apiWords)).toHaveLength(2);
		}
	});

	test('contact and property operations are offered in those words, the API nouns left out', () => {
		const actions = ENDPOINTS.filter((endpoint) => ['customer', 'product', 'action'].includes(endpoint.resource)).map(
			(endpoint) => endpoint.operation.action,
		);
		expect(actions).toContain('Create or update a contact');
		expect(actions).toContain('Get many properties');
		expect(actions).toContain('Log an activity on a contact');
		expect(actions.filter((action) => /customer|product/i.test(action))).toEqual([]);
	});

	test('operation descriptions leak no API internals', () => {
		expect(ENDPOINTS.filter((endpoint) => /customers_ID/.test(endpoint.operation.description ?? ''))).toEqual([]);
	});

	test('the trigger offers Contact Created … Property Updated, each naming its API event once', () => {
		const trigger = new AgencyCrmTrigger().description;
		const events = trigger.properties.find((property) => property.name === 'events')!.options as Array<{
			name: string;
			value: string;
			description: string;
		}>;
		expect(events.map(({ name, value }) => [name, value])).toEqual([
			['Contact Created', 'CUSTOMER_CREATE'],
			['Contact Updated', 'CUSTOMER_UPDATE'],
			['Property Created', 'PRODUCT_CREATE'],
			['Property Deleted', 'PRODUCT_DELETE'],
			['Property Updated', 'PRODUCT_UPDATE'],
		]);
		for (const event of events) expect(event.description.split(event.value)).toHaveLength(2);
		const related = trigger.properties.map((property) => property.displayName);
		expect(related).toEqual(expect.arrayContaining(['Contact Related Data', 'Property Related Data']));
	});
});

describe('the trigger shows each option only for the events it concerns (issue 29)', () => {
	const trigger = new AgencyCrmTrigger().description;
	/** The parameters the editor shows for these values, by display name, as n8n decides it. */
	const shown = (values: Record<string, unknown>, typeVersion = 2) => {
		const node = { name: 'Agency CRM Trigger', type: 'agencyCrmTrigger', typeVersion, parameters: values };
		return trigger.properties
			.filter((property) =>
				NodeHelpers.displayParameter(values as INodeParameters, property, node as unknown as INode, trigger),
			)
			.map((property) => property.displayName);
	};
	const related = ['Contact Related Data', 'Property Related Data'];
	const compared = ['Contact Data Compared', 'Property Data Compared'];
	const withRecord = { fetchFullRecord: true, skipUnchangedRecords: true };

	test.each([
		['only contact events', ['CUSTOMER_CREATE', 'CUSTOMER_UPDATE'], ['Contact Related Data', 'Contact Data Compared']],
		['only property changes', ['PRODUCT_UPDATE'], ['Property Related Data', 'Property Data Compared']],
		['only deletions (the record is gone)', ['PRODUCT_DELETE'], []],
		['both kinds', ['CUSTOMER_CREATE', 'PRODUCT_CREATE'], [...related, ...compared]],
		['an expression', '={{ $vars.events }}', [...related, ...compared]],
	])('%s', (_case, events, expected) => {
		const visible = shown({ events, ...withRecord });
		expect(visible.filter((name) => [...related, ...compared].includes(name)).sort()).toEqual([...expected].sort());
	});

	test('the data compared only with Skip Unchanged Records; nothing of the record without Fetch Full Record', () => {
		const events = ['CUSTOMER_UPDATE', 'PRODUCT_UPDATE'];
		expect(shown({ events, fetchFullRecord: true, skipUnchangedRecords: false })).not.toContain(
			'Contact Data Compared',
		);
		const bare = shown({ events, fetchFullRecord: false });
		expect(bare.filter((name) => [...related, ...compared, 'Skip Unchanged Records'].includes(name))).toEqual([]);
	});

	test('Drop Repeated Deliveries and the catch-up start on in version 2, off in the versions workflows were saved with', () => {
		const defaults = (typeVersion: number) => {
			const node = { name: 'Agency CRM Trigger', type: 'agencyCrmTrigger', typeVersion, parameters: {} };
			const values = NodeHelpers.getNodeParameters(
				trigger.properties,
				{},
				true,
				false,
				node as unknown as INode,
				trigger,
			);
			return { drop: values?.dropRepeatedDeliveries, catchUp: values?.catchUp, answer: values?.answer };
		};
		expect(defaults(2)).toEqual({ drop: true, catchUp: true, answer: 'immediately' });
		expect(defaults(1.1)).toEqual({ drop: false, catchUp: undefined, answer: 'immediately' });
		expect(defaults(1)).toEqual({ drop: false, catchUp: undefined, answer: 'immediately' });
		expect(trigger.version).toEqual([1, 1.1, 2]);
		expect(trigger.defaultVersion).toBe(2);
	});
});

describe('node versions', () => {
	test('a new node is version 2; workflows saved with version 1 keep it', () => {
		expect(node.version).toEqual([1, 2]);
		expect(node.defaultVersion).toBe(2);
	});

	/**
	 * Whether a parameter 0.1.0 saved is still read the same: at its path, of its type (or a text box
	 * where it was a number: a number saved reads as its digits; or hidden, which keeps what was saved),
	 * offering every value it offered, shown under the same conditions, and, on top (where n8n applies a
	 * default the workflow left out), with its default.
	 */
	function stillRead(path: string, before: ParameterShape, after: ParameterShape | undefined): boolean {
		if (!after) return false;
		const asDigits = before.type === 'number' && after.type === 'string';
		const type = after.type === before.type || asDigits || after.type === 'hidden';
		const values = (before.values ?? []).every((value) => after.values?.includes(value));
		const onTop = !path.includes('.');
		const defaultRead = asDigits ? String(before.default) : JSON.stringify(before.default);
		const unchangedDefault = !onTop || (asDigits ? after.default : JSON.stringify(after.default)) === defaultRead;
		return type && values && unchangedDefault && JSON.stringify(after.shownWhen) === JSON.stringify(before.shownWhen);
	}

	test('version 1 reads every parameter 0.1.0 saved workflows hold as 0.1.0 did', () => {
		const now = parameterShapes(properties, 1);
		const changed = Object.entries(savedParameters as ParameterShapes).flatMap(([operation, shapes]) =>
			Object.entries(shapes)
				.filter(([path, before]) => !stillRead(path, before, now[operation]?.[path]))
				.map(([path]) => `${operation} ${path}`),
		);
		expect(changed).toEqual([]);
	});

	/**
	 * What a 0.1.0 workflow leaves out reads as 0.1.0 ran it: options of collections (unset), collections
	 * (empty), the hidden Simplify (on, 0.1.0's default), Output (Simplified, what Simplify on gave) and
	 * its Fields (shown only for Selected Fields).
	 */
	function runsAsBefore(path: string, shape: ParameterShape): boolean {
		if (path.includes('.')) return true;
		if (shape.type === 'collection') return JSON.stringify(shape.default) === '{}';
		if (path === 'simplify') return shape.type === 'hidden' && shape.default === true;
		if (path === 'output') return shape.default === 'simple';
		return path === 'fields' && JSON.stringify(shape.shownWhen) === JSON.stringify({ output: ['fields'] });
	}

	test('what version 1 adds since 0.1.0 leaves a 0.1.0 workflow running as it did', () => {
		const saved = savedParameters as ParameterShapes;
		const now = parameterShapes(properties, 1);
		// Only operations 0.1.0 had: a workflow saved with it holds no other.
		const added = Object.entries(now)
			.filter(([operation]) => saved[operation])
			.flatMap(([operation, shapes]) =>
				Object.entries(shapes)
					.filter(([path, shape]) => !saved[operation]?.[path] && !runsAsBefore(path, shape))
					.map(([path]) => `${operation} ${path}`),
			);
		expect(added).toEqual([]);
	});

	test('every version-specific parameter is shown for one version only', () => {
		const fieldProperties = properties.filter((property) => property.displayOptions?.show?.operation);
		for (const property of fieldProperties) {
			expect([property.name, property.displayOptions?.show?.['@version']]).toEqual([
				property.name,
				[expect.any(Number)],
			]);
		}
	});
});

describe('version 2: the contact forms put the match keys first', () => {
	test.each(['upsert', 'create'])(
		'Contact → %s shows Email, then Phone and Mobile Phone, before any other data field',
		(operation) => {
			const shown = form('customer', operation, 2).filter((property) => property.type !== 'notice');
			expect(shown.slice(0, 3).map((property) => property.displayName)).toEqual(['Email', 'Phone', 'Mobile Phone']);
			for (const key of shown.slice(0, 3)) expect(key.placeholder).toBeTruthy();
		},
	);

	test('Create or Update says how it matches, in its description and in a notice', () => {
		const saying = 'matched by email, or by phone when there is none';
		const upsert = ENDPOINTS.find(
			(endpoint) => endpoint.resource === 'customer' && endpoint.operation.value === 'upsert',
		)!;
		expect(upsert.operation.description).toContain(`(${saying})`);
		const [notice] = form('customer', 'upsert', 2);
		expect(notice).toMatchObject({ type: 'notice' });
		expect(notice.displayName).toBe(
			'The contact is the one with this email (by its phones only when the item has none); it is updated, or created. A contact found by phone is someone else, and left alone, when it has another email, another first name, or another last name under another first name. The same first name: a short form or an initial (Jean-Pierre, Jean, J.), accents and capitals aside, and with the same last name one typo in a name of 5 letters or more (Christoph, Christophe). Other first names: Jean / Jeanne, Denis / Denise, Julien / Julie (see Options).',
		);
	});

	// Issue 39, point 7: a contact created with Agency left empty lands in an agency the form names.
	test.each([
		['create', 1],
		['create', 2],
		['upsert', 1],
		['upsert', 2],
	])('Contact → %s (version %d) says which agency a contact left without one lands in', (operation, version) => {
		const agency = form('customer', operation, version).find((property) => property.name === 'agencyId')!;
		expect(agency.description).toBe(
			"The agency the contact belongs to. Left empty, Agency CRM puts a new contact in the site's first agency (the first Agency → Get Many lists).",
		);
	});

	test('version 1 keeps Email in Additional Fields', () => {
		const additional = form('customer', 'upsert', 1).find((property) => property.name === 'additionalFields')!;
		expect((additional.options as INodeProperties[]).map((option) => option.name)).toContain('email');
	});
});

describe('version 2: data in Additional Fields and Filters, settings under Options', () => {
	const SETTINGS = [
		'checkDuplicate',
		'concurrency',
		'exactMatchesOnly',
		'extraBodyJson',
		'extraQueryJson',
		'fetch',
		'fields',
		'firstNameTypo',
		'include',
		'includeLogs',
		'matchBy',
		'output',
		'paginationMode',
		'perPage',
		'sortOrder',
		'sortType',
		'telephoneCode',
		'timeZone',
		'uploadEncoding',
		'uploadPartName',
		'whenPhoneMatchDiffers',
		'withoutEmail',
	];
	const operations = ENDPOINTS.map(
		(endpoint) => [`${endpoint.resource}:${endpoint.operation.value}`, endpoint] as const,
	);

	test.each(operations)('%s', (_, endpoint) => {
		const shown = form(endpoint.resource, endpoint.operation.value, 2);
		const optionsOf = (name: string) =>
			((shown.find((property) => property.name === name)?.options ?? []) as INodeProperties[]).map(
				(option) => option.name,
			);
		const data = [...optionsOf('additionalFields'), ...optionsOf('filters')];
		expect(data.filter((name) => SETTINGS.includes(name))).toEqual([]);
		expect(shown.map((property) => property.name).filter((name) => SETTINGS.includes(name))).toEqual([]);
		const options = optionsOf('options');
		expect(options).toContain('concurrency');
		expect(options.filter((name) => !SETTINGS.includes(name))).toEqual([]);
	});

	test('Include and Output of a contact search are options; Selected Fields appear with Output "Selected Fields"', () => {
		const options = form('customer', 'getAll', 2).find((property) => property.name === 'options')!
			.options as INodeProperties[];
		expect(options.map((option) => option.displayName)).toEqual(
			expect.arrayContaining(['Include', 'Output', 'Fields', 'Page Size', 'Concurrency']),
		);
		expect(options.find((option) => option.name === 'fields')?.displayOptions).toEqual({
			show: { output: ['fields'] },
		});
	});
});

describe('the credential', () => {
	const credential = new AgencyCrmApi();

	test('a new credential has an empty Site ID and Agency ID, with placeholders', () => {
		for (const name of ['siteId', 'agencyId']) {
			expect(credential.properties.find((property) => property.name === name)).toMatchObject({
				default: '',
				placeholder: expect.stringMatching(/^e\.g\. \d+$/),
			});
		}
	});

	test('every field users fill in says where its value comes from', () => {
		const visible = credential.properties.filter((property) => property.type !== 'hidden');
		expect(visible.filter((property) => !property.description).map((property) => property.name)).toEqual([]);
	});
});
