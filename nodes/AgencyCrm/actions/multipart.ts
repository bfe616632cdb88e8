import { randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { FileValue } from '../catalogue/types';

/** A part name or file name safe inside a quoted header parameter. */
const quoted = (text: string) => text.replace(/["\r\n]/g, '_');

/**
 * A multipart/form-data body built in memory: the uploads are at most 20 MB, and a Buffer body
 * (unlike a stream) can be sent again after a token exchange or a retry. `fields` become text
 * parts (objects as JSON), e.g. a picture's `title`; a null has no text form in a form, so that
 * field is left out rather than sent as the text "null".
 */
export function multipartBody(
	parts: Array<{ part: string; file: FileValue }>,
	fields: IDataObject = {},
): { body: Buffer; contentType: string } {
	const boundary = `----AgencyCrm${randomBytes(12).toString('hex')}`;
	const chunks: Buffer[] = [];
	for (const [name, value] of Object.entries(fields)) {
		if (value === null || value === undefined) continue;
		const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
		chunks.push(
			Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${text}\r\n`),
		);
	}
	for (const { part, file } of parts) {
		chunks.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part)}"; filename="${quoted(file.fileName)}"\r\nContent-Type: ${file.mimeType}\r\n\r\n`,
			),
			file.data,
			Buffer.from('\r\n'),
		);
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
