/** A small `multipart/form-data` parser (RFC 7578) for the photo and picture uploads. */
import { invalidField } from './http';

export interface MultipartPart {
	name: string;
	filename: string | undefined;
	contentType: string | undefined;
	data: Buffer;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

export function isMultipart(contentType: string): boolean {
	return contentType.toLowerCase().startsWith('multipart/form-data');
}

/** The parts of a multipart body; a malformed body is a 422 on `body`. */
export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] {
	const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	if (!isMultipart(contentType) || !boundary) throw invalidField('body', 'must be multipart/form-data with a boundary');
	const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	const nextDelimiter = Buffer.concat([CRLF, delimiter]);
	const parts: MultipartPart[] = [];
	let position = body.indexOf(delimiter);
	if (position === -1) throw invalidField('body', 'has no multipart boundary');
	position += delimiter.length;
	for (;;) {
		if (body.subarray(position, position + 2).toString() === '--') return parts;
		if (!body.subarray(position, position + 2).equals(CRLF))
			throw invalidField('body', 'is not valid multipart/form-data');
		const headerEnd = body.indexOf(HEADER_END, position);
		const dataEnd = headerEnd === -1 ? -1 : body.indexOf(nextDelimiter, headerEnd + HEADER_END.length);
		if (dataEnd === -1) throw invalidField('body', 'is a truncated multipart/form-data body');
		parts.push(
			partOf(
				body.subarray(position + CRLF.length, headerEnd).toString('utf8'),
				body.subarray(headerEnd + HEADER_END.length, dataEnd),
			),
		);
		position = dataEnd + nextDelimiter.length;
	}
}

function partOf(headerText: string, data: Buffer): MultipartPart {
	const headers = new Map<string, string>();
	for (const line of headerText.split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
	}
	const disposition = headers.get('content-disposition') ?? '';
	const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
	if (name === undefined) throw invalidField('body', 'has a part without a form-data name');
	return {
		name,
		filename: /\bfilename="([^"]*)"/i.exec(disposition)?.[1],
		contentType: headers.get('content-type'),
		data,
	};
}
