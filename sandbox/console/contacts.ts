/**
 * The console's contacts: browse and search them, receive a website lead, edit a contact. Writes go
 * through the code the API uses (leads, customer updates), so they send the same webhook events.
 */
import { CUSTOMER_TYPES } from '../model';
import type { Customer } from '../model';
import { readCustomerChanges, requireCustomerIdentity } from '../resources/customers/fields';
import { updateCustomer } from '../resources/customers/records';
import { receiveBuyerLead } from '../resources/leads';
import { FieldReader } from '../validation';
import {
	consolePage,
	consoleRoute,
	formatDate,
	listPage,
	recordOf,
	redirectAfterEvent,
	rejectionNotice,
	siteOf,
} from './common';
import type { ConsoleContext, ConsoleRequest, ConsoleRoute } from './common';
import { accepting, numberOrNull, textOrNull, textsOrNull } from './forms';
import type { ConsoleReply, FormFields } from './forms';
import { html, Html, selectInput, table, textInput } from './html';
import type { Value } from './html';

/** Who the consent reason of a console lead names as its sender (`[sender] - [transaction] - [nature]`). */
export const WEBSITE_LEAD_SOURCE = 'Agency website (sandbox console)';
const WEBSITE_ORIGIN_ID = 1;

const LABELS: Record<string, string> = {
	agency_id: 'Agency',
	firstname: 'First name',
	lastname: 'Last name',
	email: 'E-mail',
	phone: 'Phone',
	mobile_phone: 'Mobile phone',
	type: 'Type',
	origin: 'Origin',
	user_id: 'Agent',
	transaction_type: 'Looking to',
	comment: 'Message',
};

export function contactRoutes(context: ConsoleContext): ConsoleRoute[] {
	const { store } = context.world;
	const { customerOrigins } = store.referentials;

	const originLabel = (id: number | null) => customerOrigins.find((origin) => origin.id === id)?.label ?? '';
	const agencyName = (id: number) => store.agencies.get(id)?.name ?? String(id);
	const userName = (id: number | null) => {
		const user = id === null ? undefined : store.users.get(id);
		return user ? `${user.firstname} ${user.lastname}` : '';
	};
	const fullName = (customer: Customer) =>
		[customer.firstname, customer.lastname].filter(Boolean).join(' ') || `(contact ${customer.customers_id})`;
	const agencyChoices = (siteId: number) =>
		store.agencyIdsOfSite(siteId).map((id) => ({ value: id, label: agencyName(id) }));
	const originChoices = customerOrigins.map((origin) => ({ value: origin.id, label: origin.label }));
	const propertyLink = (id: number) => html`<a href="/console/properties/${id}">${id}</a>`;

	const contactOf = (request: ConsoleRequest) => recordOf(store.customers, request, 'Contact');

	function list(request: ConsoleRequest): ConsoleReply {
		const siteId = siteOf(context, request);
		const { shown, controls, next } = listPage(request, {
			path: '/console/contacts',
			siteId,
			records: store.customers.forSite(siteId),
			searched: (customer) => [
				customer.customers_id,
				customer.firstname,
				customer.lastname,
				customer.email,
				customer.phone,
				customer.mobile_phone,
			],
			noun: 'contacts',
			searchLabel: 'name, e-mail, phone, id',
			actions: html`<a class="button" href="/console/contacts/new?site=${siteId}">New website lead</a>`,
		});
		const link = (customer: Customer, text: Value) =>
			html`<a href="/console/contacts/${customer.customers_id}">${text}</a>`;
		const content = html`${controls}
		${table('contacts', shown, [
			{ label: 'ID', cell: (customer) => link(customer, customer.customers_id) },
			{ label: 'Name', cell: (customer) => link(customer, fullName(customer)) },
			{ label: 'E-mail', cell: (customer) => customer.email },
			{ label: 'Phone', cell: (customer) => customer.phone ?? customer.mobile_phone },
			{ label: 'Origin', cell: (customer) => originLabel(customer.origin_id) },
			{ label: 'Agency', cell: (customer) => agencyName(customer.agency_id) },
			{ label: 'Agent', cell: (customer) => userName(customer.user_id) },
			{ label: 'Updated', cell: (customer) => formatDate(customer.updated_at) },
		])}
		${next}`;
		return { page: consolePage(context, request, { title: 'Contacts', section: 'contacts', siteId }, content) };
	}

	function leadForm(request: ConsoleRequest, siteId: number, form: FormFields, errors?: string[]): Html {
		const content = html` <p>
				A lead arrives from the agency's website, as the API's <code>POST /leads/buyers</code> receives one: the contact
				is created (or found by its e-mail or phone), its consent recorded, and its message logged in its history. A new
				contact sends <code>CUSTOMER_CREATE</code>, one found again <code>CUSTOMER_UPDATE</code>.
			</p>
			<form method="post" action="/console/contacts" id="new-lead">
				<input type="hidden" name="site" value="${siteId}" />
				<fieldset>
					<legend>Website lead</legend>
					${textInput('First name', 'firstname', form.firstname)} ${textInput('Last name', 'lastname', form.lastname)}
					${textInput('E-mail', 'email', form.email, html`type="email"`)} ${textInput('Phone', 'phone', form.phone)}<br />
					${selectInput('Agency', 'agency_id', agencyChoices(siteId), form.agency_id)}
					${selectInput('Origin', 'origin_id', originChoices, form.origin_id ?? WEBSITE_ORIGIN_ID)}
					${selectInput(
						'Looking to',
						'transaction_type',
						[
							{ value: 'sale', label: 'buy' },
							{ value: 'rental', label: 'rent' },
						],
						form.transaction_type,
					)}<br />
					<label
						><span>Message (cite a listing's reference, e.g. VA5005, for the lead-routing example's follow-up)</span>
						<textarea name="comment">${form.comment}</textarea></label
					><br />
					<button type="submit">Receive the lead</button>
				</fieldset>
			</form>`;
		return consolePage(context, request, { title: 'New website lead', section: 'contacts', siteId, errors }, content);
	}

	function receiveLead(request: ConsoleRequest): Promise<ConsoleReply> {
		const siteId = siteOf(context, request);
		const { form } = request;
		return accepting(
			() => {
				const reader = new FieldReader({
					agency_id: numberOrNull(form, 'agency_id'),
					comment: textOrNull(form, 'comment'),
					transaction_type: form.transaction_type ?? 'sale',
				});
				const agencyId = reader.requiredInteger('agency_id');
				if (reader.valid && !store.agencyIdsOfSite(siteId).includes(agencyId))
					reader.fail('agency_id', `is not an agency of site ${siteId}`);
				const comment = reader.optionalString('comment', { nullable: true, maxLength: 5000 }) ?? null;
				const transactionType = reader.requiredOneOf('transaction_type', ['sale', 'rental'] as const);
				const customerFields = {
					...textsOrNull(form, ['firstname', 'lastname', 'email', 'phone']),
					origin: numberOrNull(form, 'origin_id'),
				};
				// Problems of both readers are reported together.
				const customerReader = new FieldReader(customerFields, '', reader.details);
				const customer = readCustomerChanges(customerReader, store, siteId);
				requireCustomerIdentity(customerReader, customer);
				reader.throwIfInvalid();
				const received = receiveBuyerLead(context.world, siteId, WEBSITE_LEAD_SOURCE, {
					agencyId,
					customer,
					requestNature: 'Search',
					comment,
					transactionType,
					searchRequests: [],
				});
				const { customers_id } = received.customer;
				const target = `/console/contacts/${customers_id}`;
				return received.duplicate
					? redirectAfterEvent(
							context,
							{ siteId, event: 'CUSTOMER_UPDATE', resourceId: customers_id },
							target,
							`Lead received: it matches contact ${customers_id} (same e-mail or phone), which now holds it.`,
						)
					: redirectAfterEvent(
							context,
							{ siteId, event: 'CUSTOMER_CREATE', resourceId: customers_id },
							target,
							`Lead received: contact ${customers_id} created.`,
						);
			},
			LABELS,
			(problems) => leadForm(request, siteId, form, problems),
		);
	}

	function contactPage(request: ConsoleRequest, customer: Customer, form?: FormFields, errors?: string[]): Html {
		const siteId = customer.site_id;
		const values: FormFields = form ?? {
			firstname: customer.firstname ?? '',
			lastname: customer.lastname ?? '',
			email: customer.email ?? '',
			phone: customer.phone ?? '',
			mobile_phone: customer.mobile_phone ?? '',
			type: customer.type,
			origin_id: String(customer.origin_id ?? ''),
			agency_id: String(customer.agency_id),
			user_id: String(customer.user_id ?? ''),
		};
		const agents = store.users.forSite(siteId).map((user) => ({
			value: user.user_id,
			label: `${user.firstname} ${user.lastname}${user.is_active ? '' : ' (inactive)'}`,
		}));
		const consent = store.consents.get(customer.customers_id);
		const { actionTypes } = store.referentials;
		const content = html`${rejectionNotice(context, 'customer', customer.customers_id)}
			<p class="muted">
				Created ${formatDate(customer.created_at)} · updated ${formatDate(customer.updated_at)} · consent:
				${consent ? `${consent.status} (${consent.reason})` : 'none'}
			</p>
			<form method="post" action="/console/contacts/${customer.customers_id}" id="edit-contact">
				<fieldset>
					<legend>Edit the contact (sends CUSTOMER_UPDATE)</legend>
					${textInput('First name', 'firstname', values.firstname)}
					${textInput('Last name', 'lastname', values.lastname)} ${textInput('E-mail', 'email', values.email)}
					${textInput('Phone', 'phone', values.phone)}
					${textInput('Mobile phone', 'mobile_phone', values.mobile_phone)}<br />
					${selectInput(
						'Type',
						'type',
						CUSTOMER_TYPES.map((type) => ({ value: type, label: type })),
						values.type,
					)}
					${selectInput('Origin', 'origin_id', originChoices, values.origin_id, '(none)')}
					${selectInput('Agency', 'agency_id', agencyChoices(siteId), values.agency_id)}
					${selectInput('Agent', 'user_id', agents, values.user_id, '(none)')}<br />
					<button type="submit">Save</button>
				</fieldset>
			</form>
			<h2>History (the CRM's journal)</h2>
			${table('history', [...store.customerActions(customer.customers_id)].reverse(), [
				{ label: 'Date', cell: (action) => formatDate(action.date) },
				{
					label: 'Type',
					cell: (action) => {
						const type = actionTypes.find((candidate) => candidate.id === action.action_type_id);
						const hidden = type && !type.show_in_history;
						return html`${type?.label ?? action.action_type_id}
						${hidden ? html`<span class="muted">(not shown in the contact's history)</span>` : ''}`;
					},
				},
				{ label: 'Agent', cell: (action) => userName(action.user_id) },
				{ label: 'Listing', cell: (action) => action.product_id !== null && propertyLink(action.product_id) },
				{ label: 'Comment', cell: (action) => action.comment },
			])}
			<h2>Search requests</h2>
			${table('search-requests', store.customerSearchRequests(customer.customers_id), [
				{ label: 'ID', cell: (searchRequest) => searchRequest.search_request_id },
				{ label: 'Wording', cell: (searchRequest) => searchRequest.wording },
				{ label: 'Active', cell: (searchRequest) => (searchRequest.is_active ? 'yes' : 'no') },
				{ label: 'Criteria', cell: (searchRequest) => html`<code>${JSON.stringify(searchRequest.criteria)}</code>` },
			])}
			<h2>Follow-ups</h2>
			${table('follow-ups', store.customerFollowUps(customer.customers_id), [
				{ label: 'Listing', cell: (followUp) => propertyLink(followUp.product_id) },
				{ label: 'Status', cell: (followUp) => followUp.status },
				{ label: 'Rating', cell: (followUp) => followUp.rating },
				{ label: 'Comment', cell: (followUp) => followUp.comment },
			])}`;
		return consolePage(
			context,
			request,
			{ title: `Contact ${customer.customers_id}: ${fullName(customer)}`, section: 'contacts', siteId, errors },
			content,
		);
	}

	function editContact(request: ConsoleRequest): Promise<ConsoleReply> {
		const customer = contactOf(request);
		const { form } = request;
		return accepting(
			() => {
				const reader = new FieldReader({
					...textsOrNull(form, ['firstname', 'lastname', 'email', 'phone', 'mobile_phone']),
					type: form.type,
					origin: numberOrNull(form, 'origin_id'),
					agency_id: numberOrNull(form, 'agency_id'),
					user_id: numberOrNull(form, 'user_id'),
				});
				const changes = readCustomerChanges(reader, store, customer.site_id, customer);
				if (changes.agency_id !== undefined && !store.agencyIdsOfSite(customer.site_id).includes(changes.agency_id))
					reader.fail('agency_id', `is not an agency of site ${customer.site_id}`);
				requireCustomerIdentity(reader, { ...customer, ...changes });
				reader.throwIfInvalid();
				updateCustomer(context.world, customer, changes);
				return redirectAfterEvent(
					context,
					{ siteId: customer.site_id, event: 'CUSTOMER_UPDATE', resourceId: customer.customers_id },
					`/console/contacts/${customer.customers_id}`,
					'Contact saved.',
				);
			},
			LABELS,
			(problems) => contactPage(request, customer, form, problems),
		);
	}

	return [
		consoleRoute('GET', '/contacts', list),
		consoleRoute('GET', '/contacts/new', (request) => ({
			page: leadForm(request, siteOf(context, request), {}),
		})),
		consoleRoute('POST', '/contacts', receiveLead),
		consoleRoute('GET', '/contacts/{id}', (request) => ({ page: contactPage(request, contactOf(request)) })),
		consoleRoute('POST', '/contacts/{id}', editContact),
	];
}
