import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

/**
 * The floor of a Return All for a community node that keeps n8n's authenticated helper and its 401
 * handling (issue 19): the credential read once and handed over as `credentialsDecrypted`, this
 * package's credential (whose authenticate resolves no expression), the pages of POST
 * /customers/search fetched in a loop, and nothing else: no parameters, no validation, no retries,
 * no output shaping. Only in `npm run bench`, which puts the compiled file in n8n's custom folder
 * (type `CUSTOM.agencyCrmFloor`). Type imports only, so that it loads without n8n-workflow.
 */
export class AgencyCrmFloor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agency CRM Floor',
		name: 'agencyCrmFloor',
		group: ['transform'],
		version: 1,
		description: 'Every customer, page after page (benchmark floor)',
		defaults: { name: 'Agency CRM Floor' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'agencyCrmApi', required: true }],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { id, name } = this.getNode().credentials!.agencyCrmApi;
		const data = await this.getCredentials<ICredentialDataDecryptedObject>('agencyCrmApi');
		const credentialsDecrypted = { id: id ?? '', name, type: 'agencyCrmApi', data };
		const items: INodeExecutionData[] = [];
		let cursor: string | undefined;
		do {
			const page = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'agencyCrmApi',
				// What the node asks of every contact read (CONTACT_READ_INCLUDES): the same records, like for like.
				{
					method: 'POST',
					url: '/customers/search',
					qs: { include: 'origin,groups' },
					body: { per_page: 200, cursor },
					json: true,
				},
				{ credentialsDecrypted },
			)) as { data: IDataObject[]; meta: { next_cursor: string | null; has_more: boolean } };
			for (const record of page.data) items.push({ json: record, pairedItem: { item: 0 } });
			cursor = page.meta.has_more ? (page.meta.next_cursor ?? undefined) : undefined;
		} while (cursor !== undefined);
		return [items];
	}
}
