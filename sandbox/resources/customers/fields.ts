/** The writable customer fields, read from a body (API create and update, leads, admin CRM edits). */
import { CUSTOMER_TYPES } from '../../model';
import type { Customer, CustomerType, Phone } from '../../model';
import type { Store } from '../../store';
import { FieldReader, isObject } from '../../validation';

export type CustomerChanges = Partial<
	Pick<
		Customer,
		| 'agency_id'
		| 'firstname'
		| 'lastname'
		| 'email'
		| 'phone'
		| 'mobile_phone'
		| 'phones'
		| 'type'
		| 'group_ids'
		| 'origin_id'
		| 'user_id'
		| 'gender_code'
		| 'address'
		| 'stop_sms'
		| 'rgpd_consent'
		| 'conformity'
	>
>;

/**
 * Reads the writable customer fields; `agency_id` scope is the caller's business. A group is added to
 * those of the `current` customer (an update), as production writes one group at a time.
 */
export function readCustomerChanges(
	reader: FieldReader,
	store: Store,
	siteId: number,
	current?: Pick<Customer, 'group_ids'>,
): CustomerChanges {
	const { customerGroups, customerOrigins, genders } = store.referentials;
	const changes: CustomerChanges = {};
	const agencyId = reader.optionalInteger('agency_id');
	if (agencyId !== undefined && agencyId !== null) changes.agency_id = agencyId;
	for (const key of ['firstname', 'lastname'] as const) {
		const value = reader.optionalString(key, { nullable: true, maxLength: 100 });
		if (value !== undefined) changes[key] = value;
	}
	const email = reader.optionalEmail('email', { nullable: true });
	if (email !== undefined) changes.email = email;
	for (const key of ['phone', 'mobile_phone'] as const) {
		const value = readPhoneNumber(reader, key);
		if (value !== undefined) changes[key] = value;
	}
	const phones = readPhones(reader);
	if (phones) changes.phones = phones;
	const type = reader.optionalOneOf<CustomerType>('type', CUSTOMER_TYPES);
	if (type) changes.type = type;
	// Production names one group and the origin, each by its id (docs/sandbox.md "As production").
	for (const [key, named] of [
		['group_ids', 'group'],
		['origin_id', 'origin'],
	] as const) {
		if (reader.has(key)) reader.fail(key, `is not a contact field: the API takes ${named} (one id)`);
	}
	const groupId = reader.optionalInteger('group', { nullable: true });
	if (groupId && !customerGroups.some((group) => group.id === groupId))
		reader.fail('group', `unknown customer group ${groupId}`);
	if (groupId) changes.group_ids = [...new Set([...(current?.group_ids ?? []), groupId])];
	const originId = reader.optionalInteger('origin', { nullable: true });
	if (originId && !customerOrigins.some((origin) => origin.id === originId))
		reader.fail('origin', `unknown customer origin ${originId}`);
	if (originId !== undefined) changes.origin_id = originId;
	const userId = reader.optionalInteger('user_id', { nullable: true });
	if (userId && !store.users.getInSite(userId, siteId)) reader.fail('user_id', `unknown user ${userId}`);
	if (userId !== undefined) changes.user_id = userId;
	const genderCode = reader.optionalOneOf(
		'gender_code',
		genders.map((gender) => gender.code),
		{ nullable: true },
	);
	if (genderCode !== undefined) changes.gender_code = genderCode;
	const address = reader.optionalObject('address', { nullable: true });
	if (address !== undefined) changes.address = address && readAddress(reader.nested(address, 'address'));
	const stopSms = reader.optionalBoolean('stop_sms');
	if (stopSms !== undefined && stopSms !== null) changes.stop_sms = stopSms;
	const rgpdConsent = reader.optionalBoolean('rgpd_consent');
	if (typeof rgpdConsent === 'boolean') changes.rgpd_consent = rgpdConsent;
	// Production's: 1 documented compliant, 2 explicitly not; written, never returned.
	const conformity = reader.optionalInteger('conformity', { nullable: true });
	if (conformity !== undefined && conformity !== null && conformity !== 1 && conformity !== 2)
		reader.fail('conformity', 'must be 1 (documented compliant) or 2 (explicitly not compliant)');
	else if (conformity !== undefined) changes.conformity = conformity;
	return changes;
}

function readPhoneNumber(reader: FieldReader, key: string): string | null | undefined {
	const value = reader.optionalString(key, { nullable: true, maxLength: 30 });
	if (value && !/^\+?[\d .()-]{6,}$/.test(value)) {
		reader.fail(key, 'must be a phone number');
		return undefined;
	}
	return value;
}

function readPhones(reader: FieldReader): Phone[] | undefined {
	const items = reader.optionalArray('phones');
	if (!items) return undefined;
	return items.flatMap((item, index) => {
		if (!isObject(item)) {
			reader.fail(`phones[${index}]`, 'must be an object with type and number');
			return [];
		}
		const itemReader = reader.nested(item, `phones[${index}]`);
		const type = itemReader.requiredString('type', { maxLength: 20 });
		const number = readPhoneNumber(itemReader, 'number');
		if (number === undefined || number === null) {
			if (!itemReader.has('number')) itemReader.fail('number', 'is required');
			return [];
		}
		return [{ type, number }];
	});
}

function readAddress(reader: FieldReader): Customer['address'] {
	const text = (key: string) => reader.optionalString(key, { nullable: true, maxLength: 200 }) ?? null;
	return { street: text('street'), postal_code: text('postal_code'), city: text('city'), country: text('country') };
}

/**
 * `POST /customers` as production takes it: no contact without an email (docs/sandbox.md "As
 * production"). Leads and the console keep the looser rule below.
 */
export function requireCustomerEmail(reader: FieldReader, changes: CustomerChanges): void {
	if (!changes.email && !reader.refused('email')) reader.fail('email', 'is required: a contact needs an email');
}

/**
 * A customer needs a name or a way to reach them. A value given but refused (an email that is not
 * one) already has its own detail: saying that none was given would contradict it.
 */
export function requireCustomerIdentity(reader: FieldReader, changes: CustomerChanges): void {
	const keys = ['lastname', 'email', 'phone', 'mobile_phone'] as const;
	if (!keys.some((key) => changes[key] || reader.refused(key))) {
		reader.fail('lastname', 'a customer needs at least a lastname, an email, a phone or a mobile_phone');
	}
}
