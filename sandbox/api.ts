/**
 * What every API route module shares: the request seen by handlers, the declarative `route()`
 * with the access rule of the endpoint (packs, calendar permissions), and scope helpers.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiClient, CalendarPermission, PackName, Site, WebhookEvent } from './model';
import { forbidden, notFound, Reply } from './http';
import type { Page } from './pagination';
import type { RoutePattern } from './router';
import type { Store, Table } from './store';
import { FieldReader } from './validation';

export const API_BASE = '/api/v2/site';

/** The client and site a bearer token stands for. */
export interface Grant {
	client: ApiClient;
	siteId: number;
	/** The agencies of the site: the scope of every `agency_id` sent. */
	agencyIds: readonly number[];
}

export interface ApiRequest {
	requestId: string;
	method: string;
	/** Path below the API base, e.g. `/customers/10001`. */
	path: string;
	params: Record<string, string>;
	query: URLSearchParams;
	/** Parsed JSON body (aliases applied); undefined for empty and non-JSON bodies. */
	body: unknown;
	rawBody: Buffer;
	contentType: string;
	headers: IncomingHttpHeaders;
	grant: Grant;
	origin: string;
}

/** Who may call an endpoint: every client (`{}`), holders of one of `pack`, or of a calendar permission. */
export interface Access {
	pack?: PackName | readonly PackName[];
	calendar?: CalendarPermission;
}

export type ApiHandler = (request: ApiRequest) => Reply;

export interface ApiRoute extends RoutePattern {
	access: Access;
	handler: ApiHandler;
}

export function route(method: string, pattern: string, access: Access, handler: ApiHandler): ApiRoute {
	return { method, pattern, access, handler };
}

export interface EventPublisher {
	publish(siteId: number, event: WebhookEvent, resourceId: number): void;
}

export interface World {
	store: Store;
	events: EventPublisher;
	/** Whether the consent proof storage is switched to failing for this client (admin fault). */
	consentProofFails(clientId: string): boolean;
	/** Whether consent writes are accepted and dropped for this client (admin fault). */
	consentDropped(clientId: string): boolean;
}

/**
 * 403 unless the client may call the endpoint. The calendar needs the site's agenda module first (a
 * site without it has no agenda to grant rights on: the n8n node generated from the vendor's
 * reference), then the calendar permission.
 */
export function checkAccess(access: Access, client: ApiClient, site: Site | undefined): void {
	if (access.calendar && !site?.agenda_module_enabled) {
		throw forbidden('The agenda module is not enabled for this site.', 'MODULE_DISABLED');
	}
	if (access.calendar && !client.calendar.includes(access.calendar)) {
		throw forbidden(`This access lacks the SITE_CALENDAR:${access.calendar} permission.`, 'CALENDAR_PERMISSION_DENIED');
	}
	if (access.pack === undefined || client.packs.includes('Full')) return;
	const packs: readonly PackName[] = typeof access.pack === 'string' ? [access.pack] : access.pack;
	if (!packs.some((pack) => client.packs.includes(pack))) {
		throw forbidden(
			`This endpoint needs the ${packs.join(' or ')} pack, which is not granted to this access.`,
			'PACK_NOT_GRANTED',
		);
	}
}

/** A record as the API shows it: the internal `site_id` removed. */
export function withoutSite<T extends { site_id: number }>({ site_id: _site, ...record }: T): Omit<T, 'site_id'> {
	return record;
}

/** A path id: ids are positive integers, anything else names no record. */
export function idParam(request: ApiRequest, name: string): number {
	const raw = request.params[name];
	const id = /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
	if (id <= 0) throw notFound(`${name} ${raw}`);
	return id;
}

/** The record named by a path id; records of other sites do not exist for this token (404). */
export function pathRecord<T extends { site_id: number }>(
	request: ApiRequest,
	table: Table<T>,
	param: string,
	label: string,
): T {
	const id = idParam(request, param);
	const record = table.getInSite(id, request.grant.siteId);
	if (!record) throw notFound(`${label} ${id}`);
	return record;
}

/** 403 unless the agency belongs to the token's site (unknown agencies are out of scope too). */
export function requireAgencyInScope(request: ApiRequest, agencyId: number): void {
	if (!request.grant.agencyIds.includes(agencyId))
		throw forbidden(`Agency ${agencyId} is outside the scope of this access.`);
}

/** Reads an optional `agency_id` filter and checks it is in scope. */
export function readAgencyFilter(reader: FieldReader, request: ApiRequest): number | undefined {
	const agencyId = reader.optionalInteger('agency_id') ?? undefined;
	if (agencyId !== undefined) requireAgencyInScope(request, agencyId);
	return agencyId;
}

/** A comma-separated query parameter (`include`, `fetch`) as a set of values. */
export function includesOf(request: ApiRequest, parameter = 'include'): Set<string> {
	const raw = request.query.get(parameter);
	return new Set(
		raw
			? raw
					.split(',')
					.map((value) => value.trim())
					.filter(Boolean)
			: [],
	);
}

/** A page as `{data, meta, links: {next}}`; `next` repeats a GET with the next cursor (POST searches carry it in the body). */
export function pageReply<T>(request: ApiRequest, page: Page<T>, view: (item: T) => unknown): Reply {
	let next: string | null = null;
	if (page.meta.next_cursor && request.method === 'GET') {
		const query = new URLSearchParams(request.query);
		query.set('cursor', page.meta.next_cursor);
		next = `${request.origin}${API_BASE}${request.path}?${query.toString()}`;
	}
	return { status: 200, body: { data: page.data.map(view), meta: page.meta, links: { next } } };
}

/** A `201` with the record and, as creates commonly answer, its address in `Location` (`path` below the API base). */
export function createdAt(request: ApiRequest, path: string, data: unknown): Reply {
	return { status: 201, body: { data }, headers: { Location: `${request.origin}${API_BASE}${path}` } };
}
