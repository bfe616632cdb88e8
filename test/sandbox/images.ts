/** Image bytes for upload tests: only the headers matter to the sandbox. */
import { encodePng } from '../../sandbox/images';

export function png(width: number, height = 2): Buffer {
	return encodePng(width, height, () => [200, 120, 40]);
}

export function jpeg(width: number, height: number): Buffer {
	const app0 = Buffer.from([
		0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
	]);
	const frame = Buffer.from([
		0xff,
		0xc0,
		0x00,
		0x11,
		0x08,
		height >> 8,
		height & 0xff,
		width >> 8,
		width & 0xff,
		0x03,
		0x01,
		0x22,
		0x00,
		0x02,
		0x11,
		0x01,
		0x03,
		0x11,
		0x01,
	]);
	return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, frame, Buffer.from([0xff, 0xd9])]);
}

export function gif(width: number, height: number): Buffer {
	const header = Buffer.alloc(13);
	header.write('GIF89a', 0, 'latin1');
	header.writeUInt16LE(width, 6);
	header.writeUInt16LE(height, 8);
	return header;
}

export function webp(width: number, height: number): Buffer {
	const chunk = Buffer.alloc(10);
	chunk.writeUIntLE(width - 1, 4, 3);
	chunk.writeUIntLE(height - 1, 7, 3);
	const body = Buffer.concat([Buffer.from('WEBPVP8X', 'latin1'), Buffer.from([10, 0, 0, 0]), chunk]);
	const size = Buffer.alloc(4);
	size.writeUInt32LE(body.length);
	return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, body]);
}

/** A valid image header followed by padding up to `bytes`. */
export function padded(image: Buffer, bytes: number): Buffer {
	return Buffer.concat([image, Buffer.alloc(bytes - image.length)]);
}

export function formWith(parts: Record<string, Buffer | string>, mimeType = 'image/png'): FormData {
	const form = new FormData();
	for (const [name, value] of Object.entries(parts)) {
		if (typeof value === 'string') form.append(name, value);
		else form.append(name, new Blob([new Uint8Array(value)], { type: mimeType }), `${name}.bin`);
	}
	return form;
}
