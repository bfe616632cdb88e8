/**
 * Records held by the sandbox. Field names follow the wire format of docs/assumptions.md; a few
 * internal fields (always `site_id`, plus profile data loaded through `include`) are kept on the
 * records for O(1) scope checks and are removed by the view functions of each resource.
 */

export const PACK_NAMES = [
	'Properties',
	'Customers',
	'Leads',
	'Sales',
	'Websites',
	'Mandates',
	'Access',
	'Full',
] as const;
export type PackName = (typeof PACK_NAMES)[number];
export type CalendarPermission = 'READ' | 'WRITE';

/** Spec section 6 names the first four; production also sends PRODUCT_DELETE (docs/assumptions.md, "Production evidence"). */
export const WEBHOOK_EVENTS = [
	'CUSTOMER_CREATE',
	'CUSTOMER_UPDATE',
	'PRODUCT_CREATE',
	'PRODUCT_UPDATE',
	'PRODUCT_DELETE',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Site {
	site_id: number;
	name: string;
	agency_ids: number[];
	mandate_register_enabled: boolean;
	/** The agenda module, without which no calendar endpoint answers (403 MODULE_DISABLED). */
	agenda_module_enabled: boolean;
}

export interface Agency {
	agency_id: number;
	site_id: number;
	name: string;
	address: string;
	postal_code: string;
	city: string;
	siret: string;
	email: string;
	phone: string;
}

export interface ApiClient {
	clientId: string;
	clientSecret: string;
	name: string;
	siteId: number;
	packs: PackName[];
	calendar: CalendarPermission[];
}

export interface UserLog {
	at: string;
	action: string;
	ip: string;
}

/** 1 active, 0 archived, 3 hidden or deleted (the vendor's reference). */
export const USER_STATUSES = [1, 0, 3] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export interface User {
	user_id: number;
	site_id: number;
	agency_id: number;
	firstname: string;
	lastname: string;
	email: string;
	phone: string | null;
	group_id: number;
	type_ids: number[];
	gender_code: string | null;
	/** Whether the user is active: `status` 1, kept in step with it. */
	is_active: boolean;
	/** Production's user status (the vendor's reference): 1 active, 0 archived, 3 hidden or deleted. */
	status: UserStatus;
	/** Whether the user can delegate their work (the reference's `delegation` filter). */
	delegation: boolean;
	profile_picture: string | null;
	signature_picture: string | null;
	password: string;
	logs: UserLog[];
	created_at: string;
	updated_at: string;
}

export interface Phone {
	type: string;
	number: string;
}

export interface Address {
	street: string | null;
	postal_code: string | null;
	city: string | null;
	country: string | null;
}

export interface Notary {
	name: string;
	city: string;
	phone: string;
}

export interface CustomerRelation {
	customers_id: number;
	relation: string;
}

export const CUSTOMER_TYPES = ['buyer', 'seller', 'tenant', 'landlord', 'other'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

export interface Customer {
	customers_id: number;
	site_id: number;
	agency_id: number;
	firstname: string | null;
	lastname: string | null;
	email: string | null;
	phone: string | null;
	mobile_phone: string | null;
	phones: Phone[];
	type: CustomerType;
	group_ids: number[];
	origin_id: number | null;
	user_id: number | null;
	gender_code: string | null;
	created_at: string;
	updated_at: string;
	/** Profile data, shown only through `include`. */
	address: Address | null;
	color: string | null;
	stop_sms: boolean;
	notary: Notary | null;
	relations: CustomerRelation[];
	/** The GDPR consent: read with `include=rgpd` as `rgpd_consent` (production's). */
	rgpd_consent: boolean;
	/** 1 documented compliant, 2 explicitly not: written, never returned (production's). */
	conformity: 1 | 2 | null;
}

export interface Consent {
	customers_id: number;
	status: 'collected' | 'revoked';
	reason: string;
	collected_at: string;
	revoked_at: string | null;
	/** Whether the contact may be called outside office hours; null when the consent did not say. */
	accept_outside_hours: boolean | null;
	/** The proof files stored, by name: kept when the consent is updated or revoked (changelog 1.4.0). */
	proof_file_names: string[];
}

/**
 * A criterion's value on a product, by the criterion's numeric id: a value `model` code (UNIQUE),
 * codes (MULTIPLE), a number, a boolean (FLAG), text, or a calendar date `YYYY-MM-DD` (DATE).
 */
export interface CriterionValue {
	id: number;
	value: string | number | boolean | string[];
}

/** Production's criterion operators (docs/assumptions.md "Production evidence"). */
export const CRITERION_OPERATORS = ['EGAL', 'CONTIENT', 'INFERIEUR', 'SUPERIEUR'] as const;
export type CriterionOperator = (typeof CRITERION_OPERATORS)[number];

/** A criterion of a search request, as production takes it: the site's XML key, an operator, a text value. */
export interface SearchCriterion {
	id: string;
	operator: CriterionOperator;
	value: string;
}

export interface SearchRequest {
	search_request_id: number;
	site_id: number;
	customers_id: number;
	wording: string | null;
	alert_email: boolean;
	comment: string | null;
	is_active: boolean;
	criteria: SearchCriterion[];
	key_points: { pros: string[]; cons: string[] };
	areas: number[];
	created_at: string;
	updated_at: string;
}

export const FOLLOW_UP_STATUSES = ['new', 'contacted', 'visit_planned', 'visited', 'offer_made', 'closed'] as const;

export interface FollowUp {
	customers_id: number;
	product_id: number;
	rating: number | null;
	status: string;
	comment: string | null;
	created_at: string;
	updated_at: string;
}

export interface Action {
	action_id: number;
	site_id: number;
	action_type_id: number;
	customers_id: number | null;
	product_id: number | null;
	date: string;
	comment: string | null;
	user_id: number | null;
}

export interface Picture {
	picture_id: number;
	url: string;
	width: number;
	height: number;
	size: number;
	is_public: boolean;
	title: string | null;
}

export interface Lot {
	lot_id: number;
	product_id: number;
	label: string;
	surface: number;
	rooms: number;
	price: number;
}

/**
 * A listing as production models it (docs/assumptions.md "Production evidence"): almost no fixed
 * fields; its price, type, surface, rooms, status and town are criteria of the site. Shown with `id`
 * for `product_id` and dates with `+00:00` (resources/products.ts).
 */
export interface Product {
	product_id: number;
	site_id: number;
	agency_id: number;
	/** The listing's reference. */
	model: string;
	/** The owner (a contact), when known. */
	customers_id: number | null;
	/** Ascending by criterion id. */
	criteria: CriterionValue[];
	views: number;
	created_at: string;
	last_modified: string;
	/** Related data, shown only through `fetch` (pictures) or their own endpoint (lots). */
	pictures: Picture[];
	lots: Lot[];
}

export const OFFER_STATUSES = ['attente', 'acceptee', 'refusee', 'annulee'] as const;
export type TransactionKind = 'agreement' | 'offer' | 'lease';

export interface SuspensiveCondition {
	label: string;
	deadline: string;
	fulfilled: boolean;
}

export interface Transaction {
	compromis_id: number;
	site_id: number;
	kind: TransactionKind;
	agency_id: number;
	product_id: number;
	price: number;
	assigned_user: number | null;
	fees_user: number;
	fees_agency: number;
	fees_user_agency: number;
	fees_customer_agency: number;
	conformity: boolean;
	payment_status: string;
	payment_date: string | null;
	invoice_number: string | null;
	invoice_date: string | null;
	offer_status?: string;
	created_at: string;
	updated_at: string;
	/** Related data, shown only through `include`. */
	buyer_id: number | null;
	seller_id: number | null;
	suspensive_conditions: SuspensiveCondition[];
}

export interface Mandate {
	mandat_id: number;
	site_id: number;
	agency: number;
	first_name: string;
	last_name: string;
	is_amendment: boolean;
	number: string;
	mandate_type: string;
	product_id: number | null;
	customers_id: number | null;
	start_date: string;
	end_date: string;
}

export interface GeoPoint {
	lat: number;
	lng: number;
}

export interface CalendarParticipant {
	ext_user_id: number;
	is_creator: boolean;
	is_organizer: boolean;
}

export interface Recurrence {
	dtstart: string;
	freq: string;
	interval: number;
	count: number | null;
	until: string | null;
	[rule: string]: unknown;
}

export interface CalendarEvent {
	id: number;
	site_id: number;
	type: string;
	starts_at: string;
	ends_at: string;
	all_day: boolean;
	title: string | null;
	location: string | null;
	location_geo: GeoPoint | null;
	sequence_duration: number | null;
	gathering_gauge: number | null;
	commute_duration: number | null;
	communicate_location: boolean | null;
	is_confidential: boolean | null;
	remind_time_in_min: number | null;
	appointment_mode: string | null;
	users: CalendarParticipant[];
	products: { ext_product_id: string; ext_domain_id: string }[];
	contacts: { ext_contact_id: string; ext_domain_id: string }[];
	notes: string | null;
	visio_url: string | null;
	visit360_organizer_url: string | null;
	visit360_participation_url: string | null;
	archived: boolean | null;
	parent_id: number | null;
	recurrence: Recurrence | null;
}

export interface Webhook {
	id: number;
	site_id: number;
	url: string;
	headers: Record<string, string> | null;
	authId: number | null;
	format: string | null;
	origines: string[];
	status: 'active' | 'suspended';
	/** Failed attempts in a row (deliveries and their retries), shown in the console. */
	consecutive_failures: number;
	created_at: string;
	updated_at: string;
}

/**
 * A record the CRM marks as errored because a receiver refused one of its deliveries with a 422
 * (docs/assumptions.md, "Production evidence"): the reason is what the receiver answered.
 */
export interface Rejection {
	resource_type: 'customer' | 'product';
	resource_id: number;
	site_id: number;
	event_type: WebhookEvent;
	hook_id: number;
	reason: string;
	at: string;
}

// ---- Referentials ----

/** Production's criterion types (docs/assumptions.md "Production evidence"). */
export const CRITERION_TYPES = ['UNIQUE', 'NUMBER', 'FLAG', 'TEXT', 'MULTIPLE', 'DATE'] as const;
export type CriterionType = (typeof CRITERION_TYPES)[number];

/** A value of a UNIQUE or MULTIPLE criterion: writes carry its `model` code, never its id. */
export interface CriterionListValue {
	id: number;
	model: string;
	label: string;
}

/** A criterion of a site: products' and search requests' are separate referentials (spec section 2). */
export interface CriterionDefinition {
	id: number;
	/** The site's XML key (`TypeBien`, `NbPieces` on one site and `NbPiece` on another). */
	xml: string;
	label: string;
	short_label: string;
	type: CriterionType;
	is_activated: boolean;
	is_custom: boolean;
	is_required: boolean;
	is_public: boolean;
	category_ids: number[];
	/** Internal: a long text, shown in `criteres_fulltext` rather than `criteres_text`. */
	fulltext: boolean;
	values: CriterionListValue[];
}

export interface Category {
	id: number;
	label: string;
	property_type: string;
}

export interface Zone {
	id: number;
	site_id: number;
	label: string;
	postal_code: string;
	type: 'city' | 'district';
	parent_id: number | null;
}

export interface LabelledItem {
	id: number;
	label: string;
}

export interface ActionType extends LabelledItem {
	show_in_history: boolean;
}

export interface UserGroup extends LabelledItem {
	level: number;
}

export interface Gender {
	code: string;
	label: string;
	is_entity: boolean;
}

export interface ConfigList {
	id: number;
	label: string;
	values: LabelledItem[];
}

export interface EventType {
	id: string;
	key: string;
	label: string;
}

export interface TimeRange {
	start: { hours: number; minutes: number };
	end: { hours: number; minutes: number };
}

export const DAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type DayCode = (typeof DAY_CODES)[number];
export type Timeframe = Record<DayCode, TimeRange[]>;
