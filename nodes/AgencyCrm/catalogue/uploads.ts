import type { FieldSpec, PreparedRequest, UploadEncoding } from './types';

/**
 * How a file travels where the spec does not say (docs/assumptions.md "Guessed wire details"): the
 * name of its part, and for the consent proof its encoding. Each is an option whose default is the
 * node's guess, so that a user can match production without waiting for a release. They are read
 * off the body by `uploadAsChosen` and never sent as fields.
 */

const PART_NAME = 'upload_part_name';
const ENCODING = 'upload_encoding';

/** The name of the part (or JSON key) the file goes under; `guessed` when left as it is. */
export function partNameField(displayName: string, guessed: string): FieldSpec {
	return {
		in: 'body',
		placement: 'collection',
		key: PART_NAME,
		property: {
			displayName,
			name: 'uploadPartName',
			type: 'string',
			default: guessed,
			description: `Name the file is sent under. "${guessed}" is a guess of the node: change it if the API expects another.`,
		},
	};
}

/** Whether the file goes as a JSON `{file_name, content_base64}` or as a multipart part. */
export const encodingField: FieldSpec = {
	in: 'body',
	placement: 'collection',
	key: ENCODING,
	property: {
		displayName: 'Upload Encoding',
		name: 'uploadEncoding',
		type: 'options',
		options: [
			{
				name: 'JSON (Base64)',
				value: 'base64Json',
				description: 'The file inside the JSON body as {file_name, content_base64}',
			},
			{ name: 'Multipart Form', value: 'multipart', description: 'The file as a part of a multipart/form-data body' },
		],
		default: 'base64Json',
		description: 'How the file is sent. JSON (Base64) is a guess of the node: change it if the API expects a form.',
	},
};

/** The request with its files under the part name chosen, sent as the encoding chosen; both options off the body. */
export function uploadAsChosen(request: PreparedRequest): PreparedRequest {
	const { [PART_NAME]: partName, [ENCODING]: encoding, ...body } = request.body;
	const part = typeof partName === 'string' && partName.trim() !== '' ? partName.trim() : undefined;
	return {
		...request,
		body,
		files: part ? request.files.map((file) => ({ ...file, part })) : request.files,
		...(encoding === 'base64Json' || encoding === 'multipart' ? { upload: encoding as UploadEncoding } : {}),
	};
}
