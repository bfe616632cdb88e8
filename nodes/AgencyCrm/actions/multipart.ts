import { randomBytes } from 'crypto';

import type { FileValue } from '../catalogue/types';

/**
 * A multipart/form-data body built in memory: the uploads are at most 20 MB, and a Buffer body
 * (unlike a stream) can be sent again after a token exchange or a retry.
 */
export function multipartBody(parts: Array<{ part: string; file: FileValue }>): { body: Buffer; contentType: string } {
	const boundary = `----AgencyCrm${randomBytes(12).toString('hex')}`;
	const chunks: Buffer[] = [];
	for (const { part, file } of parts) {
		const fileName = file.fileName.replace(/["\r\n]/g, '_');
		chunks.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${part}"; filename="${fileName}"\r\nContent-Type: ${file.mimeType}\r\n\r\n`,
			),
			file.data,
			Buffer.from('\r\n'),
		);
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
