import { userField } from '../../fields';
import { MAX_UPLOAD_BYTES, atLeastOne, guess, imageOnly, maxBytes, rule, spec, unreadableImage } from '../../rules';
import type { Endpoint, FieldSpec } from '../../types';

const PHOTO = spec(
	'section 4 "Users", POST /users/{userId}/photo: "multipart/form-data; parts profile_picture and/or signature_picture, at least one required; images only, maximum 20 MB"',
);

function pictureFile(part: 'profile_picture' | 'signature_picture', property: FieldSpec['property']): FieldSpec {
	return {
		in: 'file',
		placement: 'collection',
		key: part,
		rules: [rule(PHOTO, imageOnly), unreadableImage, rule(PHOTO, maxBytes(MAX_UPLOAD_BYTES))],
		property,
	};
}

export const uploadPhoto: Endpoint = {
	resource: 'user',
	operation: {
		name: 'Upload Photo',
		value: 'uploadPhoto',
		action: 'Upload the photo of a user',
		description:
			'Set the profile photo, the signature image, or both, from input binary fields (images only, at most 20 MB each)',
	},
	method: 'POST',
	path: '/users/{userId}/photo',
	packs: ['Access'],
	resend: {
		resend: true,
		reason:
			'Spec section 2: a user has one `profile_picture` and one `signature_picture`; the upload sets them (section 4: "parts `profile_picture` and/or `signature_picture`"), so a second send sets the same pictures.',
	},
	fields: [
		userField('path'),
		pictureFile('profile_picture', {
			displayName: 'Profile Picture Input Binary Field',
			name: 'profilePictureBinaryField',
			type: 'string',
			default: 'data',
			description: 'Name of the input binary field holding the profile photo',
		}),
		pictureFile('signature_picture', {
			displayName: 'Signature Picture Input Binary Field',
			name: 'signaturePictureBinaryField',
			type: 'string',
			default: 'signature',
			description: 'Name of the input binary field holding the signature image',
		}),
	],
	checks: [
		atLeastOne(
			PHOTO,
			'"Profile Picture" or "Signature Picture" input binary field',
			'is required: give at least one',
			(request) => [request.files.length > 0],
		),
	],
};

/**
 * A picture to delete: sent as `true` in the body, and not at all when off. The spec names the flags
 * but not where they go: with both off, the flags can be sent in Extra Body Fields or Extra Query
 * Parameters under the names and in the place the API expects.
 */
function deletionFlag(property: FieldSpec['property']): FieldSpec {
	return {
		in: 'body',
		placement: 'top',
		convert: (value) => ({ value: value === false ? undefined : value }),
		property,
	};
}

export const deletePhoto: Endpoint = {
	resource: 'user',
	operation: {
		name: 'Delete Photo',
		value: 'deletePhoto',
		action: 'Delete the photo of a user',
		description: 'Remove the profile photo, the signature image, or both',
	},
	method: 'DELETE',
	path: '/users/{userId}/photo',
	packs: ['Access'],
	fields: [
		userField('path'),
		deletionFlag({
			displayName: 'Profile Picture',
			name: 'profilePicture',
			type: 'boolean',
			default: false,
			description: 'Whether to delete the profile photo',
		}),
		deletionFlag({
			displayName: 'Signature Picture',
			name: 'signaturePicture',
			type: 'boolean',
			default: false,
			description: 'Whether to delete the signature image',
		}),
	],
	checks: [
		// Spec section 4: "Boolean flags … select what to delete"; whether both may be off is not shown.
		atLeastOne(
			guess('a photo deletion selects at least one picture'),
			'"Profile Picture" or "Signature Picture"',
			'are both off, so nothing is selected for deletion',
			(request) => [request.body.profile_picture, request.body.signature_picture],
		),
	],
	output: 'deleted',
};
