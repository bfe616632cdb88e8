import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { SharedExchanges, exchangeKey } from './sharedExchanges';
import type { TokenResponse } from './tokenExchange';
import { API_PATH, TOKEN_FIELDS } from './contract';
import { apiBaseUrl, assertOnApiDomain, exchangeToken } from './tokenExchange';

/** The exchanges of this process (see SharedExchanges): one per client and stale token. */
const sharedExchanges = new SharedExchanges<TokenResponse>();

/**
 * OAuth2 client credentials, exchanged by the credential itself: the API wants the site or agency
 * id in the token request body, which n8n's generic OAuth2 credential cannot send.
 * n8n stores what preAuthentication returns (token and domain) and calls it again only when the
 * token field is empty or a request got a 401, so every item and execution reuses one token.
 * Callers that saw the same 401 at the same time share one exchange (sharedExchanges.ts).
 */
export class AgencyCrmApi implements ICredentialType {
	name = 'agencyCrmApi';

	displayName = 'Agency CRM API';

	icon: Icon = { light: 'file:../icons/agencyCrm.svg', dark: 'file:../icons/agencyCrm.dark.svg' };

	documentationUrl = 'https://github.com/agency-crm/n8n-nodes-agency-crm#credentials';

	/** Every field says where its value comes from; the IDs start empty, so that none is taken for a real one. */
	properties: INodeProperties[] = [
		{
			displayName: 'Auth URL',
			name: 'authUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://auth.example.com',
			description:
				'Address of the token endpoint host, without a path, given with your API access. For the local sandbox this is the URL it prints when it starts.',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. my-agency-n8n',
			description:
				"Generated with the Client Secret in Agency CRM's administration dashboard (ask your Agency CRM account manager for API access)",
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: "Generated with the Client ID in Agency CRM's administration dashboard",
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'options',
			options: [
				{
					name: 'Site',
					value: 'site',
					description: 'Access every agency of one site',
				},
				{
					name: 'Agency',
					value: 'agency',
					description: 'Name one agency; the API resolves its site',
				},
			],
			default: 'site',
			description: 'What the API client was granted: a whole site, or one agency',
		},
		{
			displayName: 'Site ID',
			name: 'siteId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 1',
			displayOptions: { show: { scope: ['site'] } },
			description:
				"The number of the site the API client was created for, shown with the client in Agency CRM's administration dashboard",
		},
		{
			displayName: 'Agency ID',
			name: 'agencyId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 101',
			displayOptions: { show: { scope: ['agency'] } },
			description:
				"The number of the agency (its agency_id), shown in Agency CRM's administration dashboard; the API resolves its site",
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			displayName: 'API Domain',
			name: 'domain',
			type: 'hidden',
			default: '',
		},
	];

	/**
	 * Offered to n8n's HTTP Request node as a predefined credential type, for the endpoints the nodes
	 * do not show: the user writes the whole URL, `{domain}/api/v2/site/…` (README "The HTTP Request node").
	 */
	httpRequestNode = {
		name: 'Agency CRM',
		docsUrl: 'https://github.com/agency-crm/n8n-nodes-agency-crm#the-http-request-node',
		apiBaseUrlPlaceholder: `https://api.example.com${API_PATH}/customers`,
	};

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const token = await sharedExchanges.run(exchangeKey(credentials), async () =>
			exchangeToken(this.helpers.httpRequest, credentials),
		);
		return { accessToken: token.access_token, domain: token.domain } satisfies Record<
			(typeof TOKEN_FIELDS)[number],
			string
		>;
	}

	/**
	 * A function, not expressions: n8n would resolve `={{$credentials.accessToken}}` with its expression
	 * engine on every request. The nodes send paths relative to the API base; the HTTP Request node
	 * sends whole URLs (`uri` in its older request format), which must be on the token's domain.
	 */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const { url, uri } = requestOptions as IHttpRequestOptions & { uri?: unknown };
		for (const target of [url, uri]) {
			if (typeof target === 'string' && /^https?:\/\//i.test(target)) assertOnApiDomain(target, credentials.domain);
		}
		return {
			...requestOptions,
			baseURL: requestOptions.baseURL ?? apiBaseUrl(credentials.domain),
			headers: { ...requestOptions.headers, Authorization: `Bearer ${credentials.accessToken as string}` },
		};
	};

	test: ICredentialTestRequest = {
		request: { method: 'GET', url: '/discovery' },
	};
}
