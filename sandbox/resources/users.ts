/** Users (agents and collaborators), their photos, and the user referentials: the Access pack. */
import { createdAt, includesOf, pageReply, pathRecord, readAgencyFilter, requireAgencyInScope, route } from '../api';
import type { ApiRequest, ApiRoute, World } from '../api';
import { ErrorDetail, noContent, ok, utcNow, validationError } from '../http';
import { MAX_IMAGE_BYTES, sniffImage } from '../images';
import { USER_STATUSES } from '../model';
import type { User, UserStatus } from '../model';
import { parseMultipart } from '../multipart';
import { cursorPage, readPageRequest } from '../pagination';
import type { Store } from '../store';
import { FieldReader, objectBody } from '../validation';

const ACCESS_PACK = { pack: 'Access' } as const;
const PHOTO_PARTS = ['profile_picture', 'signature_picture'] as const;
const DEFAULT_GROUP_ID = 3;

export function userView(user: User): Omit<User, 'site_id' | 'password' | 'logs'> {
	const { site_id: _site, password: _password, logs: _logs, ...view } = user;
	return view;
}

/** A status and the `is_active` flag that follows from it. */
export function withStatus(status: UserStatus): Pick<User, 'status' | 'is_active'> {
	return { status, is_active: status === 1 };
}

/** A user status given (1, 0 or 3), from a query or a JSON body. */
function readStatus(reader: FieldReader): UserStatus | undefined {
	const status = reader.optionalInteger('status');
	if (typeof status !== 'number') return undefined;
	if ((USER_STATUSES as readonly number[]).includes(status)) return status as UserStatus;
	reader.fail('status', 'must be 1 (active), 0 (archived) or 3 (hidden or deleted)');
	return undefined;
}

/** An edit made in the CRM's screens (admin `simulate-edit`): its `status` (1, 0 or 3) and `delegation`. */
export function editUser(user: User, reader: FieldReader): User {
	const status = readStatus(reader);
	const delegation = reader.optionalBoolean('delegation');
	reader.throwIfInvalid();
	if (status !== undefined) Object.assign(user, withStatus(status));
	if (typeof delegation === 'boolean') user.delegation = delegation;
	user.updated_at = utcNow();
	return user;
}

/** A French national number in international form (`0601020304` → `+33601020304`), as `telephone_code` asks. */
function internationalPhone(phone: string | null): string | null {
	const digits = phone?.replace(/[^\d+]/g, '') ?? '';
	return /^0\d{9}$/.test(digits) ? `+33${digits.slice(1)}` : phone;
}

/**
 * `GET /users`'s filters: ours (`agency_id`, `group_id`, `type_id`, `is_active`, `search`) and the
 * vendor's reference's (`status`, `without_deleted`, `delegation`, `firstname`, `lastname`, `email`
 * contained); each given narrows the list.
 */
function userFilter(reader: FieldReader, agencyId: number | undefined): (user: User) => boolean {
	const groupId = reader.optionalInteger('group_id');
	const typeId = reader.optionalInteger('type_id');
	const isActive = reader.optionalBoolean('is_active');
	const search = reader.optionalString('search')?.toLowerCase();
	const status = readStatus(reader);
	const withoutDeleted = reader.optionalBoolean('without_deleted') === true;
	const delegation = reader.optionalBoolean('delegation');
	const contains = (['firstname', 'lastname', 'email'] as const).flatMap((key) => {
		const part = reader.optionalString(key)?.toLowerCase();
		return part ? [(user: User) => user[key].toLowerCase().includes(part)] : [];
	});
	return (user) =>
		(agencyId === undefined || user.agency_id === agencyId) &&
		(typeof groupId !== 'number' || user.group_id === groupId) &&
		(typeof typeId !== 'number' || user.type_ids.includes(typeId)) &&
		(typeof isActive !== 'boolean' || user.is_active === isActive) &&
		(!search || [user.firstname, user.lastname, user.email].some((value) => value.toLowerCase().includes(search))) &&
		(status === undefined || user.status === status) &&
		(!withoutDeleted || user.status === 1) &&
		(typeof delegation !== 'boolean' || user.delegation === delegation) &&
		contains.every((test) => test(user));
}

/** Password rules of the spec: 12 to 40 characters, with upper and lower case, a digit and a special character. */
function readPassword(reader: FieldReader): string | undefined {
	const password = reader.optionalString('password') ?? undefined;
	if (password === undefined) return undefined;
	const rules: [boolean, string][] = [
		[password.length >= 12 && password.length <= 40, 'must be 12 to 40 characters long'],
		[/[A-Z]/.test(password), 'must contain an uppercase letter'],
		[/[a-z]/.test(password), 'must contain a lowercase letter'],
		[/\d/.test(password), 'must contain a digit'],
		[/[^A-Za-z0-9]/.test(password), 'must contain a special character'],
	];
	for (const [satisfied, message] of rules) if (!satisfied) reader.fail('password', message);
	return password;
}

type UserChanges = Partial<
	Pick<
		User,
		| 'agency_id'
		| 'firstname'
		| 'lastname'
		| 'email'
		| 'phone'
		| 'group_id'
		| 'type_ids'
		| 'gender_code'
		| 'is_active'
		| 'password'
	>
>;

function readUserChanges(reader: FieldReader, store: Store, siteId: number, userId: number | undefined): UserChanges {
	const { userGroups, userTypes, genders } = store.referentials;
	const changes: UserChanges = {};
	const agencyId = reader.optionalInteger('agency_id');
	if (typeof agencyId === 'number') changes.agency_id = agencyId;
	for (const key of ['firstname', 'lastname'] as const) {
		const value = reader.optionalString(key, { minLength: 1, maxLength: 100 });
		if (value) changes[key] = value;
	}
	const email = reader.optionalEmail('email');
	const owner = email
		? store.users
				.forSite(siteId)
				.find((user) => user.email.toLowerCase() === email.toLowerCase() && user.user_id !== userId)
		: undefined;
	if (owner) reader.fail('email', `is already used by user ${owner.user_id}`);
	if (email) changes.email = email;
	const phone = reader.optionalString('phone', { nullable: true, maxLength: 30 });
	if (phone !== undefined) changes.phone = phone;
	const groupId = reader.optionalInteger('group_id');
	if (typeof groupId === 'number' && !userGroups.some((group) => group.id === groupId))
		reader.fail('group_id', `unknown user group ${groupId}`);
	if (typeof groupId === 'number') changes.group_id = groupId;
	const typeIds = reader.optionalIntegerList('type_ids');
	typeIds
		?.filter((id) => !userTypes.some((type) => type.id === id))
		.forEach((id) => reader.fail('type_ids', `unknown user type ${id}`));
	if (typeIds) changes.type_ids = typeIds;
	const genderCode = reader.optionalOneOf(
		'gender_code',
		genders.map((gender) => gender.code),
		{ nullable: true },
	);
	if (genderCode !== undefined) changes.gender_code = genderCode;
	const isActive = reader.optionalBoolean('is_active');
	if (typeof isActive === 'boolean') changes.is_active = isActive;
	const password = readPassword(reader);
	if (password !== undefined) changes.password = password;
	return changes;
}

function photoProblems(parts: { name: string; data: Buffer }[]): ErrorDetail[] {
	if (parts.length === 0)
		return [
			{ field: 'profile_picture', message: 'send at least one of the parts profile_picture and signature_picture' },
		];
	return parts.flatMap(({ name, data }) => {
		if (data.length > MAX_IMAGE_BYTES)
			return [{ field: name, message: `must be at most 20 MB (20,000,000 bytes; got ${data.length})` }];
		if (!sniffImage(data)) return [{ field: name, message: 'must be an image (PNG, JPEG, WebP or GIF)' }];
		return [];
	});
}

export function userRoutes({ store }: World): ApiRoute[] {
	const pathUser = (request: ApiRequest) => pathRecord(request, store.users, 'userId', 'User');

	/** Who takes over a deleted user's records: the first other active user of the agency, else of the site. */
	function successorOf(user: User): number | null {
		const others = store.users
			.forSite(user.site_id)
			.filter((other) => other.user_id !== user.user_id && other.is_active);
		return (others.find((other) => other.agency_id === user.agency_id) ?? others[0])?.user_id ?? null;
	}

	return [
		route('GET', '/users', ACCESS_PACK, (request) => {
			const reader = FieldReader.forQuery(request.query);
			const keep = userFilter(reader, readAgencyFilter(reader, request));
			const international = reader.optionalBoolean('telephone_code') === true;
			const page = readPageRequest(reader);
			reader.throwIfInvalid();
			const view = (user: User) =>
				international ? { ...userView(user), phone: internationalPhone(user.phone) } : userView(user);
			return pageReply(
				request,
				cursorPage(store.users.forSite(request.grant.siteId), 'user_id', 'asc', page, keep),
				view,
			);
		}),
		route('POST', '/users', ACCESS_PACK, (request) => {
			const reader = new FieldReader(objectBody(request.body));
			for (const key of ['agency_id', 'firstname', 'lastname', 'email', 'password'])
				if (!reader.has(key)) reader.fail(key, 'is required');
			const changes = readUserChanges(reader, store, request.grant.siteId, undefined);
			if (changes.agency_id !== undefined) requireAgencyInScope(request, changes.agency_id);
			reader.throwIfInvalid();
			const now = utcNow();
			const user: User = {
				user_id: store.users.nextId(),
				site_id: request.grant.siteId,
				agency_id: 0,
				firstname: '',
				lastname: '',
				email: '',
				phone: null,
				group_id: DEFAULT_GROUP_ID,
				type_ids: [],
				gender_code: null,
				...withStatus(1),
				delegation: false,
				profile_picture: null,
				signature_picture: null,
				password: '',
				logs: [],
				created_at: now,
				updated_at: now,
				...changes,
				...(changes.is_active === false ? withStatus(0) : {}),
			};
			store.users.insert(user);
			return createdAt(request, `/users/${user.user_id}`, userView(user));
		}),
		route('GET', '/users/groups', ACCESS_PACK, () => ok(store.referentials.userGroups)),
		route('GET', '/users/types', ACCESS_PACK, () => ok(store.referentials.userTypes)),
		route('GET', '/users/genders', ACCESS_PACK, () => ok(store.referentials.genders)),
		route('GET', '/users/{userId}', ACCESS_PACK, (request) => {
			const user = pathUser(request);
			return ok(includesOf(request).has('logs') ? { ...userView(user), logs: user.logs } : userView(user));
		}),
		route('PATCH', '/users/{userId}', ACCESS_PACK, (request) => {
			const user = pathUser(request);
			const reader = new FieldReader(objectBody(request.body));
			const changes = readUserChanges(reader, store, request.grant.siteId, user.user_id);
			if (changes.agency_id !== undefined) requireAgencyInScope(request, changes.agency_id);
			reader.throwIfInvalid();
			Object.assign(user, changes, { updated_at: utcNow() });
			// Made inactive, an active user is archived; made active, any user is active again.
			if (changes.is_active !== undefined && changes.is_active !== (user.status === 1))
				Object.assign(user, withStatus(changes.is_active ? 1 : 0));
			return ok(userView(user));
		}),
		route('DELETE', '/users/{userId}', ACCESS_PACK, (request) => {
			const user = pathUser(request);
			const successor = successorOf(user);
			for (const customer of store.customers.forSite(user.site_id))
				if (customer.user_id === user.user_id) customer.user_id = successor;
			for (const transaction of store.transactions.forSite(user.site_id))
				if (transaction.assigned_user === user.user_id) transaction.assigned_user = successor;
			store.users.delete(user.user_id);
			return noContent();
		}),
		route('POST', '/users/{userId}/photo', ACCESS_PACK, (request) => {
			const user = pathUser(request);
			const parts = parseMultipart(request.rawBody, request.contentType).filter((part) =>
				(PHOTO_PARTS as readonly string[]).includes(part.name),
			);
			const problems = photoProblems(parts);
			if (problems.length > 0) throw validationError(problems, `${problems[0].field}: ${problems[0].message}`);
			for (const part of parts) {
				const format = sniffImage(part.data)?.format;
				user[part.name as (typeof PHOTO_PARTS)[number]] =
					`https://media.agency-crm.invalid/sites/${user.site_id}/users/${user.user_id}/${part.name}.${format === 'jpeg' ? 'jpg' : format}`;
			}
			user.updated_at = utcNow();
			return ok(userView(user));
		}),
		route('DELETE', '/users/{userId}/photo', ACCESS_PACK, (request) => {
			const user = pathUser(request);
			const reader = new FieldReader(objectBody(request.body));
			const selected = PHOTO_PARTS.filter((part) => reader.optionalBoolean(part) === true);
			if (reader.valid && selected.length === 0)
				reader.fail('profile_picture', 'set profile_picture and/or signature_picture to true');
			reader.throwIfInvalid();
			for (const part of selected) user[part] = null;
			user.updated_at = utcNow();
			return noContent();
		}),
	];
}
