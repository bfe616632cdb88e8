/** Image sniffing (format and size read from the header bytes) and a minimal PNG encoder. */
import { crc32, deflateSync } from 'node:zlib';

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

export interface ImageInfo {
	format: ImageFormat;
	/** Undefined when the header is too short to carry the dimensions. */
	width: number | undefined;
	height: number | undefined;
}

/** Spec sections 4 and 8: "maximum 20 MB", read as 20,000,000 bytes, as the node reads it. */
export const MAX_IMAGE_BYTES = 20_000_000;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format and dimensions of a PNG, JPEG, WebP or GIF image; undefined for anything else. */
export function sniffImage(data: Buffer): ImageInfo | undefined {
	if (data.subarray(0, 8).equals(PNG_SIGNATURE)) {
		return data.length >= 24
			? { format: 'png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) }
			: sized('png');
	}
	if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return { format: 'jpeg', ...jpegSize(data) };
	const head = data.subarray(0, 6).toString('latin1');
	if (head === 'GIF87a' || head === 'GIF89a') {
		return data.length >= 10
			? { format: 'gif', width: data.readUInt16LE(6), height: data.readUInt16LE(8) }
			: sized('gif');
	}
	if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP')
		return { format: 'webp', ...webpSize(data) };
	return undefined;
}

function sized(format: ImageFormat): ImageInfo {
	return { format, width: undefined, height: undefined };
}

/** Walks the JPEG segments up to the start-of-frame marker, which holds the size. */
function jpegSize(data: Buffer): { width: number | undefined; height: number | undefined } {
	let offset = 2;
	while (offset + 9 < data.length) {
		if (data[offset] !== 0xff) break;
		const marker = data[offset + 1];
		if (marker === 0xff) {
			offset++;
			continue;
		}
		const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
		if (isStartOfFrame) return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
		offset += 2 + data.readUInt16BE(offset + 2);
	}
	return { width: undefined, height: undefined };
}

function webpSize(data: Buffer): { width: number | undefined; height: number | undefined } {
	const chunk = data.subarray(12, 16).toString('latin1');
	if (chunk === 'VP8 ' && data.length >= 30)
		return { width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
	if (chunk === 'VP8L' && data.length >= 25) {
		const bits = data.readUInt32LE(21);
		return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
	}
	if (chunk === 'VP8X' && data.length >= 30)
		return { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
	return { width: undefined, height: undefined };
}

export type Rgb = readonly [number, number, number];

/** An 8-bit RGB PNG whose pixels come from `pixel(x, y)`. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
	const rowLength = 1 + width * 3;
	const raw = Buffer.alloc(rowLength * height);
	for (let y = 0; y < height; y++) {
		// Each row starts with filter type 0 (none).
		for (let x = 0; x < width; x++) {
			const [red, green, blue] = pixel(x, y);
			const offset = y * rowLength + 1 + x * 3;
			raw[offset] = red;
			raw[offset + 1] = green;
			raw[offset + 2] = blue;
		}
	}
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, default compression/filter, no interlace
	return Buffer.concat([
		PNG_SIGNATURE,
		pngChunk('IHDR', header),
		pngChunk('IDAT', deflateSync(raw)),
		pngChunk('IEND', Buffer.alloc(0)),
	]);
}

function pngChunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
	const checksum = Buffer.alloc(4);
	checksum.writeUInt32BE(crc32(typeAndData));
	return Buffer.concat([length, typeAndData, checksum]);
}
