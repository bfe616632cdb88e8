import { productField, titleField } from '../../fields';
import {
	MAX_UPLOAD_BYTES,
	MIN_PICTURE_WIDTH,
	imageOnly,
	maxBytes,
	minImageWidth,
	rule,
	spec,
	unreadableImage,
} from '../../rules';
import type { Endpoint, FieldSpec } from '../../types';
import { partNameField, uploadAsChosen } from '../../uploads';

/** Spec section 4 "Products" and section 8: "minimum width 800 px, maximum 20 MB" for both uploads. */
const PHOTO = spec(
	'section 4 "Products", POST /products/{productId}/pictures/public: "Upload a public photo; minimum width 800 px, maximum 20 MB" (private: "same limits")',
);

/** The photo, read from the item's binary field: an image within the spec's limits. */
const photoField: FieldSpec = {
	in: 'file',
	placement: 'top',
	key: 'file',
	required: PHOTO,
	rules: [
		rule(PHOTO, imageOnly),
		unreadableImage,
		rule(PHOTO, maxBytes(MAX_UPLOAD_BYTES)),
		rule(PHOTO, minImageWidth(MIN_PICTURE_WIDTH)),
	],
	property: {
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		description: 'Name of the input binary field holding the image',
	},
};

/** One of the two picture uploads; the part name `file` and the `title` are our guess. */
export function pictureUpload(visibility: 'public' | 'private'): Endpoint {
	const limits = 'an image at least 800 px wide, at most 20 MB';
	return {
		resource: 'product',
		operation:
			visibility === 'public'
				? {
						name: 'Upload Public Picture',
						value: 'uploadPublicPicture',
						action: 'Upload a public picture of a property',
						description: `Add a photo shown on the listing, from an input binary field (${limits}). Returns the picture.`,
					}
				: {
						name: 'Upload Private Picture',
						value: 'uploadPrivatePicture',
						action: 'Upload a private picture of a property',
						description: `Add a photo kept for the agency only, from an input binary field (${limits}). Returns the picture.`,
					},
		method: 'POST',
		path: `/products/{productId}/pictures/${visibility}`,
		packs: ['Properties'],
		resend: {
			resend: false,
			reason:
				'Spec section 4: "Upload a public photo" (private: the same): a second send adds the photo a second time.',
		},
		fields: [
			productField('path'),
			photoField,
			titleField('Caption of the photo'),
			partNameField('Picture Sent As', 'file'),
		],
		derive: uploadAsChosen,
	};
}
