/**
 * Actions logged on customers and products. Every action goes to the application journal; the
 * histories show only actions whose type has `show_in_history` (docs/assumptions.md).
 */
import { pageReply, pathRecord, route } from '../api';
import type { ApiRequest, ApiRoute, World } from '../api';
import { created, ok, utcNow } from '../http';
import type { Action } from '../model';
import { cursorPage, offsetSlice, readPageRequest, readPerPage } from '../pagination';
import { FieldReader, objectBody } from '../validation';
import { CUSTOMER_PACK, pathCustomer } from './customers/access';

/** An action as production's bodies name it: `action_id` is the action's type, `result` its text (docs/sandbox.md). */
function actionView(action: Action): Record<string, unknown> {
	const subject =
		action.customers_id === null ? { product_id: action.product_id } : { customers_id: action.customers_id };
	return {
		id: action.action_id,
		...subject,
		action_id: action.action_type_id,
		result: action.comment,
		date_performed: action.date,
		user_id: action.user_id,
	};
}

export function actionRoutes({ store }: World): ApiRoute[] {
	const shownTypes = new Set(
		store.referentials.actionTypes.filter((type) => type.show_in_history).map((type) => type.id),
	);
	const isShown = (action: Action) => shownTypes.has(action.action_type_id);

	function logAction(request: ApiRequest, subject: Pick<Action, 'customers_id' | 'product_id'>) {
		const reader = new FieldReader(objectBody(request.body));
		// Production's body (the type under action_id); the keys first guessed are named as such.
		for (const [key, instead] of [
			['action_type_id', 'the action type goes under action_id'],
			['comment', 'the text goes under result'],
			['date', 'the date goes under date_performed'],
		]) {
			if (reader.has(key)) reader.fail(key, `is not an action field: ${instead}`);
		}
		const actionTypeId = reader.requiredInteger('action_id');
		if (reader.valid && !store.referentials.actionTypes.some((type) => type.id === actionTypeId))
			reader.fail('action_id', `unknown action type ${actionTypeId}`);
		const date = reader.optionalIsoDateTime('date_performed') ?? utcNow();
		const comment = reader.optionalString('result', { nullable: true, maxLength: 5000 }) ?? null;
		const userId = reader.optionalInteger('user_id', { nullable: true }) ?? null;
		if (userId !== null && !store.users.getInSite(userId, request.grant.siteId))
			reader.fail('user_id', `unknown user ${userId}`);
		reader.throwIfInvalid();
		const action = store.addAction({
			action_id: store.actions.nextId(),
			site_id: request.grant.siteId,
			action_type_id: actionTypeId,
			...subject,
			date,
			comment,
			user_id: userId,
		});
		return created(actionView(action));
	}

	return [
		route('GET', '/actions/types', CUSTOMER_PACK, () => ok(store.referentials.actionTypes)),
		// Offset-based through `cursor`: the cursor is the 0-based offset (docs/assumptions.md).
		route('GET', '/customers/{customerId}/actions', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
			const reader = FieldReader.forQuery(request.query);
			const perPage = readPerPage(reader);
			const offset = reader.optionalInteger('cursor', { min: 0 }) ?? 0;
			reader.throwIfInvalid();
			const { data, hasMore } = offsetSlice(
				store.customerActions(customer.customers_id).filter(isShown),
				offset,
				perPage,
			);
			return ok(data.map(actionView), { offset, per_page: perPage, has_more: hasMore });
		}),
		route('POST', '/customers/{customerId}/actions', CUSTOMER_PACK, (request) => {
			const customer = pathCustomer(store, request);
			return logAction(request, { customers_id: customer.customers_id, product_id: null });
		}),
		route('GET', '/products/{productId}/actions', { pack: ['Properties', 'Websites'] }, (request) => {
			const product = pathRecord(request, store.products, 'productId', 'Product');
			const reader = FieldReader.forQuery(request.query);
			const page = readPageRequest(reader);
			reader.throwIfInvalid();
			return pageReply(
				request,
				cursorPage(store.productActions(product.product_id), 'action_id', 'asc', page, isShown),
				actionView,
			);
		}),
		route('POST', '/products/{productId}/actions', { pack: 'Properties' }, (request) => {
			const product = pathRecord(request, store.products, 'productId', 'Product');
			return logAction(request, { customers_id: null, product_id: product.product_id });
		}),
	];
}
