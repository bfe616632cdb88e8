import { calendarDate, commaList } from '../convert';
import { agencyField, idInPath, updatedSinceField } from '../fields';
import { choices } from '../../../shared/choices';
import { guess, rule } from '../rules';
import { SEARCH_RESEND } from '../resend';
import type { Endpoint, FieldSpec, OutputKeys } from '../types';

/** Simplified output: what was sold, by whom and for how much (keys other than the fees are our guess). */
const TRANSACTION_OUTPUT: OutputKeys = {
	id: 'compromis_id',
	simple: ['kind', 'agency_id', 'product_id', 'price', 'assigned_user', 'offer_status', 'payment_status', 'updated_at'],
	relationsParameter: 'include',
	fields: [
		'kind',
		'agency_id',
		'product_id',
		'price',
		'assigned_user',
		'offer_status',
		'fees_user',
		'fees_agency',
		'fees_user_agency',
		'fees_customer_agency',
		'conformity',
		'payment_status',
		'payment_date',
		'invoice_number',
		'invoice_date',
		'created_at',
		'updated_at',
	],
};

/**
 * Spec section 2 "Transactions": known includes; "Full include list … not shown", and deprecated
 * aliases (`followed_nego`, the `fees_*` names) "remain available". The API itself answers
 * 422 INVALID_INCLUDE to an unknown value (section 4), so any value is sent.
 */
const includeField: FieldSpec = {
	in: 'query',
	setting: true,
	placement: 'collection',
	convert: commaList,
	values: guess('transaction includes beyond those the spec names'),
	property: {
		displayName: 'Include',
		name: 'include',
		type: 'multiOptions',
		options: choices({
			Agencies: 'agencies',
			'Assigned User': 'user',
			Buyer: 'buyer',
			'Buyer Groups': 'buyer_groups',
			Fees: 'fees',
			Seller: 'seller',
			'Suspensive Conditions': 'compromis_cs',
		}),
		default: [],
		description:
			'Related data to load with each transaction; other values (e.g. the deprecated followed_nego) can be given with an expression',
	},
};

const transactionId: FieldSpec = {
	...idInPath({
		displayName: 'Transaction ID',
		name: 'compromisId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 7001',
		description: 'The compromis_id of the sale agreement, offer or lease',
	}),
	findWith: 'Transaction → Get Many Agreements, Get Many Offers or Get Many Leases',
};

/** The three searches differ only in kind (spec section 4 "Transactions"). */
function search(operation: Endpoint['operation'], path: string, extraFilters: FieldSpec[] = []): Endpoint {
	return {
		resource: 'transaction',
		operation,
		method: 'POST',
		path,
		packs: ['Sales'],
		pagination: 'cursor',
		resend: SEARCH_RESEND,
		fields: [agencyField('body'), updatedSinceField(), ...extraFilters, includeField],
		outputKeys: TRANSACTION_OUTPUT,
	};
}

/** A fee; the four names are the spec's (section 2 "Transactions"). */
function feeField(displayName: string, name: string, description: string): FieldSpec {
	return {
		in: 'body',
		placement: 'collection',
		property: { displayName, name, type: 'number', typeOptions: { minValue: 0 }, default: 0, description },
	};
}

/** A billing date: sent as the calendar date written (`YYYY-MM-DD`, our guess of the format). */
function billingDate(displayName: string, name: string): FieldSpec {
	return {
		in: 'body',
		placement: 'collection',
		convert: calendarDate,
		rules: [
			rule(guess('billing dates are calendar dates YYYY-MM-DD'), (value) =>
				/^\d{4}-\d{2}-\d{2}$/.test(String(value)) ? undefined : 'could not be read as a date',
			),
		],
		property: { displayName, name, type: 'dateTime', default: '' },
	};
}

/**
 * Spec section 4: `PUT /agreement/{id}` "accepts only billing/invoicing fields (conformity, payment,
 * invoice numbers, fees)". The fee names are the spec's; the other key names are our guess.
 */
const billingFields: FieldSpec[] = [
	{
		in: 'body',
		placement: 'collection',
		property: {
			displayName: 'Conformity',
			name: 'conformity',
			type: 'boolean',
			default: false,
			description: 'Whether the file was checked as conformant',
		},
	},
	{
		in: 'body',
		placement: 'collection',
		values: guess('payment statuses'),
		property: {
			displayName: 'Payment Status',
			name: 'paymentStatus',
			type: 'options',
			options: choices({ Invoiced: 'invoiced', Paid: 'paid', 'Partially Paid': 'partially_paid', Pending: 'pending' }),
			default: 'pending',
			description: 'Choose from the list, or specify another status using an expression',
		},
	},
	billingDate('Payment Date', 'paymentDate'),
	{
		in: 'body',
		placement: 'collection',
		property: { displayName: 'Invoice Number', name: 'invoiceNumber', type: 'string', default: '' },
	},
	billingDate('Invoice Date', 'invoiceDate'),
	feeField('Fees User', 'feesUser', 'Fees of the agent'),
	feeField('Fees Agency', 'feesAgency', 'Fees of the agency'),
	feeField('Fees User Agency', 'feesUserAgency', 'Fees of the agent’s agency'),
	feeField('Fees Customer Agency', 'feesCustomerAgency', 'Fees of the customer’s agency'),
];

export const transactionEndpoints: Endpoint[] = [
	search(
		{
			name: 'Get Many Agreements',
			value: 'getManyAgreements',
			action: 'Get many sale agreements',
			description: 'Search sale agreements (compromis) by agency and last change',
		},
		'/transactions/agreement/search',
	),
	search(
		{
			name: 'Get Many Offers',
			value: 'getManyOffers',
			action: 'Get many sales offers',
			description: 'Search sales offers by agency, last change and offer status',
		},
		'/transactions/sales-offers/search',
		[
			{
				in: 'body',
				placement: 'collection',
				// Spec section 3: "attente, acceptee, refusee and a further value beginning annule"; the rest not shown.
				values: guess('offer statuses beyond attente, acceptee and refusee'),
				property: {
					displayName: 'Offer Status',
					name: 'offerStatus',
					type: 'options',
					options: choices({ Accepted: 'acceptee', Cancelled: 'annulee', Pending: 'attente', Refused: 'refusee' }),
					default: 'attente',
					description: 'Choose from the list, or specify another status using an expression',
				},
			},
		],
	),
	search(
		{
			name: 'Get Many Leases',
			value: 'getManyLeases',
			action: 'Get many leases',
			description: 'Search leases by agency and last change',
		},
		'/transactions/leases/search',
	),
	{
		resource: 'transaction',
		operation: {
			name: 'Get',
			value: 'get',
			action: 'Get a transaction',
			description: 'Get one sale agreement, offer or lease by its ID, with the related data asked for',
		},
		method: 'GET',
		path: '/agreement/{compromisId}',
		packs: ['Sales'],
		fields: [transactionId, includeField],
		outputKeys: TRANSACTION_OUTPUT,
	},
	{
		resource: 'transaction',
		operation: {
			name: 'Update Billing',
			value: 'updateBilling',
			action: 'Update the billing of a transaction',
			description:
				'Change the billing fields of a sale agreement, offer or lease: conformity, payment, invoice and fees. Other fields cannot be changed.',
		},
		method: 'PUT',
		path: '/agreement/{compromisId}',
		record: { id: 'compromis_id', readBack: 'transaction:get' },
		packs: ['Sales'],
		fields: [transactionId, ...billingFields],
	},
];
