import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { PaginationMode } from '../../shared/transport';

/** Subscription packs (spec section 1). Calendar endpoints need a calendar permission instead. */
export type Pack =
	| 'Properties'
	| 'Customers'
	| 'Leads'
	| 'Sales'
	| 'Websites'
	| 'Mandates'
	| 'Access'
	| 'Full'
	| 'Any'
	| 'SITE_CALENDAR:READ'
	| 'SITE_CALENDAR:WRITE';

/**
 * Where a field's value goes: a `{placeholder}` of the path, the query, the JSON body, or (for
 * uploads) a file read from the item's binary property named by the field, sent as
 * `Endpoint.upload` says.
 */
export type FieldLocation = 'path' | 'query' | 'body' | 'file';

/** A binary input resolved for an upload. */
export interface FileValue {
	fileName: string;
	mimeType: string;
	data: Buffer;
}

/** Returns what is wrong with a value ("must be …"), or undefined when it is fine. */
export type Rule = (value: unknown) => string | undefined;

/** What a transform may need besides the value: the workflow's time zone, for dates without one. */
export interface WireEnv {
	timezone: string;
}

/** Converts what the user entered into what the API expects; returns an `Invalid` when it cannot. */
export type WireTransform = (value: unknown, env: WireEnv) => unknown;

export interface FieldSpec {
	in: FieldLocation;
	/**
	 * The descriptor users see, written as a literal so that the n8n linter checks it.
	 * `required: true` makes it a top-level parameter; otherwise it is an option of the
	 * operation's "Additional Fields", "Filters" or "Options" collection.
	 */
	property: INodeProperties;
	/** Wire key; by default the property name in snake_case (`mobilePhone` → `mobile_phone`). */
	key?: string;
	wire?: WireTransform;
	rules?: Rule[];
}

/** A rule broken by a whole request rather than one field, e.g. "exactly one organizer". */
export interface Violation {
	field: string;
	message: string;
}

/** The request as it will be sent, before any I/O: what validation and tests look at. */
export interface WireRequest {
	method: IHttpRequestMethods;
	path: string;
	pathParams: IDataObject;
	qs: IDataObject;
	body: IDataObject;
	files: Array<{ part: string; file: FileValue }>;
	/** Records per page for paginated operations, when the user chose one. */
	pageSize?: number;
	/** The pagination mode the user chose, for endpoints that offer several. */
	pagination?: PaginationMode;
	/** How many records a paginated operation returns at most; undefined for Return All. */
	limit?: number;
}

/** A rule across fields, run on the finished wire request; returns what is wrong (none: fine). */
export type Check = (wire: WireRequest) => Violation[];

/**
 * How the `file` fields travel: as parts of a `multipart/form-data` body whose other parts are
 * the body fields as text (the default), or inside the JSON body as `{file_name, content_base64}`
 * under the field's key (consent proof, see docs/assumptions.md).
 */
export type UploadEncoding = 'multipart' | 'base64Json';

/**
 * How a successful answer becomes output items when it is not the default (the `data` record, or
 * one item per record of a `data` array, or `{success: true}` for a 204).
 */
export type OutputShape =
	/** A deletion: `{deleted: true}`. */
	| 'deleted'
	/** An image when the API returns one (output as binary), otherwise the JSON record. */
	| 'imageOrRecord';

/** Runs an operation that is more than one request (e.g. customer upsert). */
export type CustomOperation = (
	this: IExecuteFunctions,
	wire: WireRequest,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

export interface Endpoint {
	/** Value of the node's Resource parameter. */
	resource: string;
	/** The operation as users see it; a literal the linter checks (`name`, `value`, `action`). */
	operation: INodePropertyOptions & { value: string; action: string };
	method: IHttpRequestMethods;
	/** Relative to the API base, with `{placeholders}` named like the path fields. */
	path: string;
	packs: Pack[];
	fields: FieldSpec[];
	pagination?: PaginationMode;
	/** When the API pages this endpoint in more than one way, the modes users may choose (first: default). */
	paginationModes?: PaginationMode[];
	/** Rules across fields, checked on the wire request. */
	checks?: Check[];
	output?: OutputShape;
	/** Keys kept by the Simplify option; the option exists only where this is set. */
	simplify?: string[];
	/** Whether the JSON body accepts extra fields the spec does not list (escape hatch). */
	extraBodyJson?: boolean;
	/** A POST that only reads (searches): safe to resend after a connection reset. */
	readOnly?: boolean;
	/** How `file` fields are sent; `multipart` when not set. */
	upload?: UploadEncoding;
	/** Statuses with a business meaning here, never retried (e.g. 502 on consent). */
	noRetryStatuses?: number[];
	custom?: CustomOperation;
}
