import { agencyField, idInPath, updatedSinceField } from '../fields';
import { atLeastOne, eachOneOf, oneOf } from '../rules';
import type { Endpoint, FieldSpec } from '../types';
import { calendarDate, commaList } from '../wire';

/** Includes the node offers (spec section 2; deprecated aliases such as followed_nego left out). */
const TRANSACTION_INCLUDES = ['compromis_cs', 'agencies', 'buyer', 'buyer_groups', 'seller', 'fees', 'user'];
const PAYMENT_STATUSES = ['pending', 'invoiced', 'partially_paid', 'paid'] as const;
const OFFER_STATUSES = ['attente', 'acceptee', 'refusee', 'annulee'] as const;

const includeField: FieldSpec = {
	in: 'query',
	wire: commaList,
	rules: [eachOneOf(TRANSACTION_INCLUDES)],
	property: {
		displayName: 'Include',
		name: 'include',
		type: 'multiOptions',
		options: [
			{ name: 'Agencies', value: 'agencies' },
			{ name: 'Assigned User', value: 'user' },
			{ name: 'Buyer', value: 'buyer' },
			{ name: 'Buyer Groups', value: 'buyer_groups' },
			{ name: 'Fees', value: 'fees' },
			{ name: 'Seller', value: 'seller' },
			{ name: 'Suspensive Conditions', value: 'compromis_cs' },
		],
		default: [],
		description: 'Related data to load with each transaction',
	},
};

const transactionId: FieldSpec = idInPath({
	displayName: 'Transaction ID',
	name: 'compromisId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 7001',
	description: 'The compromis_id of the sale agreement, offer or lease',
});

/** The three searches differ only in kind (spec section 4 "Transactions"). */
function search(operation: Endpoint['operation'], path: string, extraFilters: FieldSpec[] = []): Endpoint {
	return {
		resource: 'transaction',
		operation,
		method: 'POST',
		path,
		packs: ['Sales'],
		pagination: 'cursor',
		readOnly: true,
		fields: [agencyField('body', false), updatedSinceField(), ...extraFilters, includeField],
	};
}

/** The only fields `PUT /agreement/{id}` accepts (docs/assumptions.md "Transactions"). */
const billingFields: FieldSpec[] = [
	{
		in: 'body',
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
		rules: [oneOf(PAYMENT_STATUSES)],
		property: {
			displayName: 'Payment Status',
			name: 'paymentStatus',
			type: 'options',
			options: [
				{ name: 'Invoiced', value: 'invoiced' },
				{ name: 'Paid', value: 'paid' },
				{ name: 'Partially Paid', value: 'partially_paid' },
				{ name: 'Pending', value: 'pending' },
			],
			default: 'pending',
		},
	},
	{
		in: 'body',
		wire: calendarDate,
		property: { displayName: 'Payment Date', name: 'paymentDate', type: 'dateTime', default: '' },
	},
	{
		in: 'body',
		property: { displayName: 'Invoice Number', name: 'invoiceNumber', type: 'string', default: '' },
	},
	{
		in: 'body',
		wire: calendarDate,
		property: { displayName: 'Invoice Date', name: 'invoiceDate', type: 'dateTime', default: '' },
	},
	{
		in: 'body',
		property: {
			displayName: 'Fees User',
			name: 'feesUser',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Fees of the agent',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Fees Agency',
			name: 'feesAgency',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Fees of the agency',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Fees User Agency',
			name: 'feesUserAgency',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Fees of the agent’s agency',
		},
	},
	{
		in: 'body',
		property: {
			displayName: 'Fees Customer Agency',
			name: 'feesCustomerAgency',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Fees of the customer’s agency',
		},
	},
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
				rules: [oneOf(OFFER_STATUSES)],
				property: {
					displayName: 'Offer Status',
					name: 'offerStatus',
					type: 'options',
					options: [
						{ name: 'Accepted', value: 'acceptee' },
						{ name: 'Cancelled', value: 'annulee' },
						{ name: 'Pending', value: 'attente' },
						{ name: 'Refused', value: 'refusee' },
					],
					default: 'attente',
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
			description: 'Get one sale agreement, offer or lease, with related data if asked',
		},
		method: 'GET',
		path: '/agreement/{compromisId}',
		packs: ['Sales'],
		fields: [transactionId, includeField],
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
		packs: ['Sales'],
		fields: [transactionId, ...billingFields],
		checks: [
			atLeastOne('"Additional Fields"', 'needs at least one billing field', (wire) => [
				Object.keys(wire.body).length > 0,
			]),
		],
	},
];
