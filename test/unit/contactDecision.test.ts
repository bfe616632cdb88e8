import type { IDataObject } from 'n8n-workflow';

import { decideContact } from '../../nodes/AgencyCrm/actions/contact/decide';
import { expected } from '../../nodes/AgencyCrm/actions/contact/find';
import type { Answer, Decision, Failure, Step } from '../../nodes/AgencyCrm/actions/contact/steps';
import type { ContactPolicy } from '../../nodes/AgencyCrm/catalogue/resources/contact/matching';
import { policyOf } from '../../nodes/AgencyCrm/catalogue/resources/contact/matching';

/**
 * The contact decision of Create or Update (issue 32), with no I/O: the requests it asks for, in
 * order, given the API's answers, and the outcome it ends with. Each case the issue found wrong is a
 * test of its own, named after it.
 */

const DEFAULTS = policyOf();

/** Drives the decision: each step it yields is recorded and answered with the next answer. */
function decide(body: IDataObject, answers: Answer[], policy: ContactPolicy = DEFAULTS) {
	const steps: Step[] = [];
	const plan = decideContact(body, policy);
	let next = plan.next();
	while (!next.done) {
		steps.push(next.value);
		const answer = answers.shift();
		if (!answer) throw new Error(`no answer left for ${JSON.stringify(next.value)}`);
		next = plan.next(answer);
	}
	expect(answers).toEqual([]);
	return { steps, result: next.value };
}

const hits = (...records: IDataObject[]): Answer => ({ kind: 'hits', records });
const claimed = (writtenMeanwhile = false): Answer => ({ kind: 'claimed', writtenMeanwhile });
const written = (status: number, record?: IDataObject): Answer => ({ kind: 'written', status, record });
const read = (record: IDataObject): Answer => ({ kind: 'read', record });
const refused = (status: number, message: string): Answer => ({ kind: 'refused', status, message, cause: undefined });

const succeeded = (result: Decision | Failure): Decision => {
	if (result.outcome === 'failed') throw new Error(`failed: ${result.message}`);
	return result;
};

const jeanPierre = {
	id: 7,
	firstname: 'Jean-Pierre',
	lastname: 'Dupont',
	email: 'jp.dupont@example.com',
	phone: '06 12 34 56 78',
	type: 'seller',
	created_at: '2026-01-10T10:00:00Z',
};

describe('the cases issue 32 found', () => {
	test('a name variant found by phone (Jean for Jean-Pierre) is updated, keeping its first name, never a second contact', () => {
		const { steps, result } = decide(
			{ firstname: 'Jean', lastname: 'Dupont', phone: '+33 6 12 34 56 78', type: 'buyer' },
			[hits(jeanPierre), claimed(), written(204), read({ ...jeanPierre, type: 'buyer' })],
		);
		expect(steps).toEqual([
			{ kind: 'search', filter: { phone: '0612345678' } },
			{ kind: 'claim', ids: [7] },
			{ kind: 'update', id: 7, changes: { type: 'buyer' } },
			{ kind: 'read', id: 7 },
		]);
		const decided = succeeded(result);
		expect([decided.outcome, decided.matchedBy, decided.record.id]).toEqual(['updated', 'phone', 7]);
		expect(decided.notTaken).toEqual({
			firstname: 'the contact was found by its phone and keeps its own firstname (Jean-Pierre)',
		});
	});

	test('a married name (same first name, another last name) found by phone is the same person', () => {
		const marie = { id: 8, firstname: 'Marie', lastname: 'Dupont', email: null, mobile_phone: '0699887766' };
		const { result } = decide({ firstname: 'Marie', lastname: 'Martin', mobile_phone: '+33699887766' }, [
			hits(marie),
			claimed(),
		]);
		const decided = succeeded(result);
		expect([decided.outcome, decided.matchedBy]).toEqual(['unchanged', 'phone']);
		expect(Object.keys(decided.notTaken)).toEqual(['lastname']);
	});

	test('a lead with an email never lands on a nameless contact holding its phone (a switchboard): it is created with its email, then given the phone', () => {
		const { steps, result } = decide({ lastname: 'Durand', email: 'Paul.Durand@Example.com ', phone: '0478000000' }, [
			hits({ id: 90, email: 'other@example.com' }),
			written(201, { id: 91, lastname: 'Durand', email: 'paul.durand@example.com', phone: null }),
			claimed(),
			written(204),
			read({ id: 91, lastname: 'Durand', email: 'paul.durand@example.com', phone: '04 78 00 00 00' }),
		]);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'create', 'claim', 'update', 'read']);
		expect(steps[0]).toEqual({ kind: 'search', filter: { email: 'paul.durand@example.com' } });
		expect(steps[1]).toEqual({
			kind: 'create',
			body: { lastname: 'Durand', email: 'Paul.Durand@Example.com', check_duplicate: true },
		});
		expect(steps[3]).toEqual({ kind: 'update', id: 91, changes: { phone: '0478000000' } });
		const decided = succeeded(result);
		expect([decided.outcome, decided.matchedBy, decided.notTaken]).toEqual(['created', undefined, {}]);
	});

	test('with "Email, Then Phones", a nameless contact found by phone does not confirm it is the person: a new contact', () => {
		const policy = { ...DEFAULTS, matchBy: 'emailThenPhones' as const };
		const { steps, result } = decide(
			{ lastname: 'Durand', email: 'paul@example.com', phone: '0478000000' },
			[
				hits(),
				hits({ id: 90, phone: '04 78 00 00 00' }),
				claimed(),
				written(201, { id: 92, lastname: 'Durand', email: 'paul@example.com' }),
				claimed(),
				written(200, {
					id: 92,
					lastname: 'Durand',
					email: 'paul@example.com',
					phone: '0478000000',
					type: 'buyer',
					agency_id: 1,
					user_id: null,
					firstname: null,
					mobile_phone: null,
				}),
			],
			policy,
		);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'search', 'claim', 'create', 'claim', 'update']);
		const decided = succeeded(result);
		expect([decided.outcome, decided.record.id]).toEqual(['created', 92]);
		expect(decided.notices[0]).toMatch(/^Contact 90 has the phone but no email, and no name that confirms it/);
	});

	test('a lead with a name and a phone but no email is created with a placeholder address that carries neither its phones nor a guess: its phones come after', () => {
		const { steps, result } = decide({ firstname: 'Léa', lastname: 'Petit', phone: '+33 6 11 22 33 44' }, [
			hits(),
			written(201, { id: 40, firstname: 'Léa', lastname: 'Petit', email: '0611223344.lea-petit@no-email.invalid' }),
			claimed(),
			written(204),
			read({
				id: 40,
				firstname: 'Léa',
				lastname: 'Petit',
				email: '0611223344.lea-petit@no-email.invalid',
				phone: '0611223344',
			}),
		]);
		expect(steps[1]).toEqual({
			kind: 'create',
			body: {
				firstname: 'Léa',
				lastname: 'Petit',
				email: '0611223344.lea-petit@no-email.invalid',
				check_duplicate: true,
			},
		});
		const decided = succeeded(result);
		expect(decided.outcome).toBe('created');
		expect(decided.notices).toEqual([
			'Created with the placeholder email 0611223344.lea-petit@no-email.invalid: the item has none, and Agency CRM creates no contact without one',
		]);
	});

	test('phones the API refuses after the create are named in fields_not_taken with its reason; the item is created', () => {
		const { result } = decide({ lastname: 'Roy', email: 'roy@example.com', phone: '12' }, [
			hits(),
			written(201, { id: 50, lastname: 'Roy', email: 'roy@example.com' }),
			claimed(),
			refused(422, 'The phone must be a phone number'),
		]);
		const decided = succeeded(result);
		expect(decided.outcome).toBe('created');
		expect(decided.notTaken).toEqual({
			phone: 'the contact was created, but the API refused its phones: The phone must be a phone number',
		});
	});
});

test('a new contact gets its GDPR conformity with its phones, by an update once it exists (production takes it by PATCH)', () => {
	const { steps, result } = decide({ lastname: 'Roy', email: 'roy@example.com', conformity: 1 }, [
		hits(),
		written(201, { id: 51, lastname: 'Roy', email: 'roy@example.com' }),
		claimed(),
		written(204),
		read({ id: 51, lastname: 'Roy', email: 'roy@example.com' }),
	]);
	expect(steps[1]).toEqual({
		kind: 'create',
		body: { lastname: 'Roy', email: 'roy@example.com', check_duplicate: true },
	});
	expect(steps[3]).toEqual({ kind: 'update', id: 51, changes: { conformity: 1 } });
	// Write-only: the read-back cannot show it, so it is not said to be missing.
	expect(succeeded(result)).toMatchObject({
		outcome: 'created',
		notTaken: {},
		evidence:
			'no contact has the email roy@example.com; created with its email, then given its GDPR conformity (HTTP 201)',
	});
});

describe('failures after a write the API accepted never fail the item (from a review)', () => {
	test('the search for the ID of a contact created without one fails: created, what it was to be given named', () => {
		const { steps, result } = decide({ lastname: 'Roy', email: 'roy@example.com', phone: '0611000002' }, [
			hits(),
			written(201),
			{ kind: 'unsearched', message: 'Agency CRM could not be reached', cause: new Error('ECONNRESET') },
		]);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'create', 'search']);
		expect(succeeded(result)).toMatchObject({
			outcome: 'created',
			notTaken: {
				phone:
					'the contact was created, but neither the answer nor a search gave its ID to add it (the search by its email failed: ECONNRESET)',
			},
		});
	});

	test('a create whose answer stayed lost fails saying the contact may have been made, and that running again is safe', () => {
		const { result } = decide({ lastname: 'Roy', email: 'roy@example.com' }, [
			hits(),
			{ kind: 'refused', message: 'Agency CRM could not be reached for POST /customers', cause: undefined },
		]);
		expect(result).toMatchObject({
			outcome: 'failed',
			description:
				'The contact may have been created. Run again: the node looks for it by its email before creating it.',
		});
	});
});

describe('the policy', () => {
	const jean = { id: 3, firstname: 'Jean', lastname: 'Moreau', phone: '0612345678', email: 'jean@example.com' };
	const marie = { firstname: 'Marie', lastname: 'Moreau', phone: '06 12 34 56 78' };

	test('a partner sharing the phone (another first name) gets a contact of her own by default', () => {
		const { steps, result } = decide(marie, [
			hits(jean),
			claimed(),
			written(201, {
				id: 4,
				firstname: 'Marie',
				lastname: 'Moreau',
				email: '0612345678.marie-moreau@no-email.invalid',
			}),
			claimed(),
			written(204),
			read({
				id: 4,
				firstname: 'Marie',
				lastname: 'Moreau',
				email: '0612345678.marie-moreau@no-email.invalid',
				phone: '0612345678',
			}),
		]);
		expect(steps.filter((step) => step.kind === 'update')).toEqual([
			{ kind: 'update', id: 4, changes: { phone: '06 12 34 56 78' } },
		]);
		expect(succeeded(result).outcome).toBe('created');
	});

	test('"Fail the Item" fails naming the contact and what differs; nothing is written', () => {
		const { steps, result } = decide(marie, [hits(jean), claimed()], { ...DEFAULTS, whenPhoneMatchDiffers: 'fail' });
		expect(steps.map((step) => step.kind)).toEqual(['search', 'claim']);
		expect(result.outcome).toBe('failed');
		expect((result as Failure).message).toBe(
			'Contact 3 has the phone but another first name (Jean, not Marie): a shared phone (a switchboard, a portal relay, a partner) does not make it the same person',
		);
	});

	test('"Update It, Keeping Its Name and Email" writes the other fields only', () => {
		const { steps, result } = decide(
			{ ...marie, type: 'tenant' },
			[hits(jean), claimed(), written(204), read({ ...jean, type: 'tenant' })],
			{
				...DEFAULTS,
				whenPhoneMatchDiffers: 'update',
			},
		);
		expect(steps[2]).toEqual({ kind: 'update', id: 3, changes: { type: 'tenant' } });
		expect(succeeded(result).notTaken).toEqual({
			firstname: 'the contact was found by its phone and keeps its own firstname (Jean)',
		});
	});

	test('a phone-only lead that matches nobody fails naming Email when the policy says so', () => {
		const { result } = decide({ phone: '0611111111' }, [hits()], { ...DEFAULTS, withoutEmail: 'fail' });
		expect(result).toMatchObject({
			outcome: 'failed',
			message: 'No contact has this phone, and Agency CRM creates no contact without an email',
		});
		expect((result as Failure).description).toMatch(/Give the item an Email/);
	});
});

describe('email', () => {
	test('the most recent of two exact hits, case and spaces aside; loose hits are left alone; no phone search', () => {
		const older = { id: 1, email: 'ANA@example.com', created_at: '2026-01-01T00:00:00Z', lastname: 'Ana' };
		const newer = { id: 2, email: 'ana@example.com', created_at: '2026-02-01T00:00:00Z', lastname: 'Ana' };
		const { steps, result } = decide({ email: ' ana@example.com', lastname: 'Ana', phone: '0600000000' }, [
			hits(newer, { id: 3, email: 'hana@example.com' }, older),
			claimed(),
			written(204),
			read({ ...newer, phone: '0600000000' }),
		]);
		expect(steps.slice(0, 2)).toEqual([
			{ kind: 'search', filter: { email: 'ana@example.com' } },
			{ kind: 'claim', ids: [2, 1] },
		]);
		expect(succeeded(result).record.id).toBe(2);
	});

	test('a contact that already holds every field given is left unchanged: no update is sent', () => {
		const ana = { id: 2, email: 'ana@example.com', lastname: 'Ana', phone: '+33 6 00 00 00 00', agency_id: 1 };
		const { steps, result } = decide({ email: 'ana@example.com', lastname: 'Ana', phone: '0600000000', agency_id: 1 }, [
			hits(ana),
			claimed(),
		]);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'claim']);
		expect(succeeded(result).outcome).toBe('unchanged');
	});

	test('an earlier item of the run wrote the contact meanwhile: it is searched again and judged as left', () => {
		const { steps } = decide({ email: 'ana@example.com', lastname: 'Ana' }, [
			hits({ id: 2, email: 'ana@example.com', lastname: 'Old' }),
			claimed(true),
			hits({ id: 2, email: 'ana@example.com', lastname: 'Ana' }),
		]);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'claim', 'search']);
	});

	test('a create refused with 409 (a contact the search missed) is found by its email and updated', () => {
		const { steps, result } = decide({ email: 'bo@example.com', lastname: 'Bo' }, [
			hits(),
			refused(409, 'Customer 42 already has this email.'),
			hits({ id: 42, email: 'bo@example.com', lastname: 'B' }),
			claimed(),
			written(204),
			read({ id: 42, email: 'bo@example.com', lastname: 'Bo' }),
		]);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'create', 'search', 'claim', 'update', 'read']);
		const decided = succeeded(result);
		expect([decided.outcome, decided.matchedBy]).toEqual(['updated', 'email']);
		expect(decided.evidence).toMatch(/^the create was refused with HTTP 409/);
	});

	test('an update the read-back shows did not take a field names it', () => {
		const { result } = decide({ email: 'cy@example.com', lastname: 'Cy', origin: 5 }, [
			hits({ id: 9, email: 'cy@example.com', lastname: 'C' }),
			claimed(),
			written(204),
			read({ id: 9, email: 'cy@example.com', lastname: 'Cy', origin: null }),
		]);
		expect(succeeded(result).notTaken).toEqual({
			origin: 'the API answered HTTP 204, but the contact read back does not hold it',
		});
	});
});

describe('names as people type them (issue 39)', () => {
	const christophe = {
		id: 12,
		firstname: 'Christophe',
		lastname: 'Martin',
		email: 'christophe.martin@example.com',
		mobile_phone: '06 12 34 56 78',
	};
	const christoph = { firstname: 'Christoph', lastname: 'Martin', mobile_phone: '+33 6 12 34 56 78', type: 'seller' };

	test('a first name one typo away, with the same last name and phone, is that contact; the hint names the rule and both names', () => {
		const { steps, result } = decide(christoph, [
			hits(christophe),
			claimed(),
			written(204),
			read({ ...christophe, type: 'seller' }),
		]);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'claim', 'update', 'read']);
		expect(steps[2]).toEqual({ kind: 'update', id: 12, changes: { type: 'seller' } });
		const decided = succeeded(result);
		expect([decided.outcome, decided.matchedBy]).toEqual(['updated', 'phone']);
		expect(decided.notTaken).toEqual({
			firstname: 'the contact was found by its phone and keeps its own firstname (Christophe)',
		});
		expect(decided.notices).toEqual([
			"Contact 12 has the phone and the same last name, and its first name Christophe is one typo away from the item's Christoph: taken for the same person (Options → First Name One Typo Away)",
		]);
		expect(decided.evidence).toBe(
			"found by its phone 0612345678; its first name Christophe is one typo away from the item's Christoph; updated (HTTP 204, then read back)",
		);
	});

	test('"First Name One Typo Away: Someone Else" leaves that contact alone: a new contact', () => {
		const policy = { ...DEFAULTS, firstNameTypo: 'someoneElse' as const };
		const { steps, result } = decide(christoph, [hits(christophe), claimed(), refused(422, 'no')], policy);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'claim', 'create']);
		expect(result.notices[0]).toBe(
			'Contact 12 has the phone but another first name (Christophe, not Christoph): a shared phone (a switchboard, a portal relay, a partner) does not make it the same person',
		);
	});

	test("Jeanne on Jean Martin's phone (a couple) is someone else: a new contact, the hint names both", () => {
		const jean = { id: 13, firstname: 'Jean', lastname: 'Martin', email: null, phone: '0612345678' };
		const { steps, result } = decide({ firstname: 'Jeanne', lastname: 'Martin', phone: '0612345678' }, [
			hits(jean),
			claimed(),
			refused(422, 'no'),
		]);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'claim', 'create']);
		expect(result.notices[0]).toMatch(/^Contact 13 has the phone but another first name \(Jean, not Jeanne\)/);
	});
});

describe('"Update It, Keeping Its Name and Email" says what it did (issue 39)', () => {
	const update = { ...DEFAULTS, whenPhoneMatchDiffers: 'update' as const };
	const jean = { id: 3, firstname: 'Jean', lastname: 'Moreau', phone: '0612345678', email: 'jean@example.com' };

	test('the hint says the contact was updated keeping its name and email, not that it was left alone', () => {
		const { result } = decide(
			{ firstname: 'Marie', lastname: 'Moreau', phone: '0612345678', type: 'tenant' },
			[hits(jean), claimed(), written(204), read({ ...jean, type: 'tenant' })],
			update,
		);
		const decided = succeeded(result);
		expect(decided.notices).toEqual([
			"Contact 3 has the phone but another first name (Jean, not Marie): updated all the same, as Options → Phone Match Differs says, keeping its name and email (the item's are under fields_not_taken)",
		]);
	});

	test('with "Email, Then Phones", the item\'s email never replaces the contact\'s other email: it is named under fields_not_taken', () => {
		const { steps, result } = decide(
			{ email: 'marie@example.com', firstname: 'Marie', lastname: 'Moreau', phone: '0612345678', type: 'tenant' },
			[hits(), hits(jean), claimed(), written(204), read({ ...jean, type: 'tenant' })],
			{ ...update, matchBy: 'emailThenPhones' },
		);
		expect(steps[3]).toEqual({ kind: 'update', id: 3, changes: { type: 'tenant' } });
		const decided = succeeded(result);
		expect(decided.record.email).toBe('jean@example.com');
		expect(decided.notTaken).toEqual({
			email: 'the contact was found by its phone and keeps its own email (jean@example.com)',
			firstname: 'the contact was found by its phone and keeps its own firstname (Jean)',
		});
	});
});

test("Other Phones given to a contact found are added to its list: the API writes the list whole, and the contact's own numbers stay", () => {
	const contact = {
		id: 5,
		email: 'ana@example.com',
		phones: [{ type: 'mobile', number: '06 11 11 11 11' }],
	};
	const { steps } = decide(
		{
			email: 'ana@example.com',
			phones: [
				{ type: 'work', number: '04 78 00 00 00' },
				{ type: 'home', number: '+33 6 11 11 11 11' },
			],
		},
		[hits(contact), claimed(), written(204), read(contact)],
	);
	expect(steps[2]).toEqual({
		kind: 'update',
		id: 5,
		changes: {
			phones: [
				{ type: 'mobile', number: '06 11 11 11 11' },
				{ type: 'work', number: '04 78 00 00 00' },
			],
		},
	});
});

/**
 * What an item's output says of its decision (outcome_evidence, the hints, a failure's description),
 * word for word: a user reads it to know why the node took, left or made a contact.
 */
describe('what the output says of the decision', () => {
	const ana = { id: 2, email: 'ana@example.com', lastname: 'Ana', created_at: '2026-02-01T00:00:00Z' };

	test('found by its email: one hit, updated', () => {
		const { result } = decide({ email: 'ana@example.com', lastname: 'Ana', type: 'buyer' }, [
			hits(ana),
			claimed(),
			written(204),
			read({ ...ana, type: 'buyer' }),
		]);
		expect(succeeded(result).evidence).toBe('found by its email ana@example.com; updated (HTTP 204, then read back)');
	});

	test('found by its email: the most recent of two, unchanged', () => {
		const older = { ...ana, id: 1, created_at: '2026-01-01T00:00:00Z' };
		const { result } = decide({ email: 'ana@example.com', lastname: 'Ana' }, [hits(older, ana), claimed()]);
		expect(succeeded(result).evidence).toBe(
			'found by its email ana@example.com (the most recent of 2); it already holds every field given',
		);
	});

	test('an update the API refuses fails the item, quoting it, and says nothing was changed', () => {
		const { result } = decide({ email: 'ana@example.com', lastname: 'Ana', type: 'buyer' }, [
			hits(ana),
			claimed(),
			refused(422, 'type is not allowed'),
		]);
		expect(result).toMatchObject({
			outcome: 'failed',
			message: 'The API refused the update of contact 2 (found by its email ana@example.com): type is not allowed',
			description: 'Nothing was changed. Check the fields the API names, then run again.',
		});
	});

	test('found by one of two phones: both numbers are named', () => {
		const paul = { id: 5, firstname: 'Paul', lastname: 'Roux', email: 'paul@example.com', mobile_phone: '0698765432' };
		const { steps, result } = decide(
			{ firstname: 'Paul', lastname: 'Roux', phone: '01 02 03 04 05', mobile_phone: '06 98 76 54 32', type: 'buyer' },
			[hits(), hits(paul), claimed(), written(204), read({ ...paul, type: 'buyer' })],
		);
		expect(steps.slice(0, 2)).toEqual([
			{ kind: 'search', filter: { phone: '0102030405' } },
			{ kind: 'search', filter: { phone: '0698765432' } },
		]);
		const decided = succeeded(result);
		expect(decided.evidence).toBe('found by its phone 0102030405 or 0698765432; updated (HTTP 204, then read back)');
		expect(decided.notices).toEqual([]);
	});

	test('the same number written twice is searched once', () => {
		const { steps } = decide({ lastname: 'Roux', phone: '+33 6 98 76 54 32', mobile_phone: '06.98.76.54.32' }, [
			hits(),
			refused(422, 'no'),
		]);
		expect(steps.filter((step) => step.kind === 'search')).toEqual([
			{ kind: 'search', filter: { phone: '0698765432' } },
		]);
	});

	test('Update It with two contacts that differ: the most recent is updated, the other left alone, each said', () => {
		const jean = {
			id: 3,
			firstname: 'Jean',
			lastname: 'Moreau',
			phone: '0612345678',
			email: 'jean@example.com',
			created_at: '2026-01-01T00:00:00Z',
		};
		const paul = { ...jean, id: 4, firstname: 'Paul', email: 'paul@example.com', created_at: '2026-03-01T00:00:00Z' };
		const { steps, result } = decide(
			{ firstname: 'Marie', lastname: 'Moreau', phone: '0612345678', type: 'tenant' },
			[hits(jean, paul), claimed(), written(204), read({ ...paul, type: 'tenant' })],
			{ ...DEFAULTS, whenPhoneMatchDiffers: 'update' },
		);
		expect(steps[2]).toEqual({ kind: 'update', id: 4, changes: { type: 'tenant' } });
		const decided = succeeded(result);
		expect(decided.notices).toEqual([
			'Contact 3 has the phone but another first name (Jean, not Marie): a shared phone (a switchboard, a portal relay, a partner) does not make it the same person',
			"Contact 4 has the phone but another first name (Paul, not Marie): updated all the same, as Options → Phone Match Differs says, keeping its name and email (the item's are under fields_not_taken)",
		]);
		expect(decided.evidence).toBe(
			'found by its phone 0612345678, though it has another first name (Paul, not Marie); updated (HTTP 204, then read back)',
		);
	});

	test('Fail the Item, with a contact that differs: the failure says what to do', () => {
		const jean = { id: 3, firstname: 'Jean', lastname: 'Moreau', phone: '0612345678', email: 'jean@example.com' };
		const { result } = decide(
			{ firstname: 'Marie', lastname: 'Moreau', phone: '0612345678' },
			[hits(jean), claimed()],
			{
				...DEFAULTS,
				whenPhoneMatchDiffers: 'fail',
			},
		);
		expect((result as Failure).description).toBe(
			'Give the item an Email, or choose what to do under Options → Phone Match Differs.',
		);
	});

	test.each([
		['nobody has the phone', [], DEFAULTS, {}, 'no contact has the phone 0612345678'],
		[
			'the contact with the phone is someone else',
			[{ id: 3, firstname: 'Jean', lastname: 'Moreau', phone: '0612345678' }],
			DEFAULTS,
			{},
			'the contacts with the phone 0612345678 are someone else',
		],
		[
			'nobody has the email, then the phone',
			[],
			{ ...DEFAULTS, matchBy: 'emailThenPhones' as const },
			{ email: 'marie@example.com' },
			'no contact has the email marie@example.com, and no contact has the phone 0612345678',
		],
	])('a new contact when %s: its evidence says what the searches found', (_case, found, policy, email, searched) => {
		const body = { firstname: 'Marie', lastname: 'Moreau', phone: '0612345678', ...email };
		const answers = [...('email' in email ? [hits()] : []), hits(...found), ...(found.length ? [claimed()] : [])];
		const created = { id: 9, firstname: 'Marie', lastname: 'Moreau', email: 'marie@example.com' };
		// Created without its phone, then given it (production takes phones by an update).
		const given = [claimed(), written(204), read({ ...created, phone: '0612345678' })];
		const { result } = decide(body, [...answers, written(201, created), ...given], policy);
		expect(succeeded(result).evidence).toMatch(new RegExp(`^${searched}; created with its`));
	});
});

describe('what the searches keep (find.ts)', () => {
	test("a phone search's loose hit (another number) is not the contact: a new one is made", () => {
		const { steps, result } = decide({ lastname: 'Roux', phone: '0612345678' }, [
			hits({ id: 6, lastname: 'Roux', phone: '0612345679', email: 'roux@example.com' }),
			refused(422, 'no'),
		]);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'create']);
		expect(result.outcome).toBe('failed');
	});

	test('a hit without an id cannot be written to: it is not taken', () => {
		const { steps } = decide({ email: 'ana@example.com', lastname: 'Ana' }, [
			hits({ email: 'ana@example.com', lastname: 'Ana' }),
			refused(422, 'no'),
		]);
		expect(steps.map((step) => step.kind)).toEqual(['search', 'create']);
	});

	test('an answer of another kind than the step asked for is a defect of the node, said as such', () => {
		expect(() => expected({ kind: 'claimed', writtenMeanwhile: false }, 'hits')).toThrow(
			'The contact decision expected "hits", got "claimed"',
		);
	});
});
