import type { FieldSpec, PreparedRequest } from './types';

/**
 * The name of a picture's part, which the spec does not give and only a client that never sent a
 * picture names (docs/assumptions.md "Guessed wire details"): an option whose default is that name,
 * so that a user can match production without waiting for a release. It is read off the body by
 * `uploadAsChosen` and never sent as a field.
 */

const PART_NAME = 'upload_part_name';

/** The name of the part the file goes under; `guessed` when left as it is. */
export function partNameField(displayName: string, guessed: string): FieldSpec {
	return {
		in: 'body',
		placement: 'collection',
		setting: true,
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

/** The request with its files under the part name chosen, the option off the body. */
export function uploadAsChosen(request: PreparedRequest): PreparedRequest {
	const { [PART_NAME]: partName, ...body } = request.body;
	const part = typeof partName === 'string' && partName.trim() !== '' ? partName.trim() : undefined;
	return { ...request, body, files: part ? request.files.map((file) => ({ ...file, part })) : request.files };
}
