/** Dimensions read from an image header, without decoding the image. */
export interface ImageInfo {
	format: 'png' | 'jpeg' | 'webp' | 'gif';
	width: number;
	height: number;
}

function pngInfo(data: Buffer): ImageInfo | undefined {
	const signature = '89504e470d0a1a0a';
	if (data.length < 24 || data.subarray(0, 8).toString('hex') !== signature) return undefined;
	return { format: 'png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

function gifInfo(data: Buffer): ImageInfo | undefined {
	const magic = data.subarray(0, 6).toString('latin1');
	if (data.length < 10 || (magic !== 'GIF87a' && magic !== 'GIF89a')) return undefined;
	return { format: 'gif', width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
}

/** JPEG keeps its size in the first start-of-frame segment (SOF0…SOF15 except DHT, JPG, DAC). */
function jpegInfo(data: Buffer): ImageInfo | undefined {
	if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
	let offset = 2;
	while (offset + 9 < data.length) {
		if (data[offset] !== 0xff) return undefined;
		const marker = data[offset + 1];
		if (marker === 0xff) {
			offset++;
			continue;
		}
		const length = data.readUInt16BE(offset + 2);
		const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
		if (isStartOfFrame) {
			return { format: 'jpeg', height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
		}
		offset += 2 + length;
	}
	return undefined;
}

/** WebP: lossy (VP8), lossless (VP8L) and extended (VP8X) headers store the size differently. */
function webpInfo(data: Buffer): ImageInfo | undefined {
	if (data.length < 30 || data.toString('latin1', 0, 4) !== 'RIFF' || data.toString('latin1', 8, 12) !== 'WEBP') {
		return undefined;
	}
	const chunk = data.toString('latin1', 12, 16);
	if (chunk === 'VP8 ') {
		return { format: 'webp', width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
	}
	if (chunk === 'VP8L') {
		const bits = data.readUInt32LE(21);
		return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
	}
	if (chunk === 'VP8X') {
		return { format: 'webp', width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
	}
	return undefined;
}

/** PNG, JPEG, WebP or GIF dimensions; undefined for anything else. */
export function imageInfo(data: Buffer): ImageInfo | undefined {
	return pngInfo(data) ?? jpegInfo(data) ?? webpInfo(data) ?? gifInfo(data);
}
