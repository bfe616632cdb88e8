export { apiRequest, responseData, CREDENTIAL_TYPE } from './request';
export type { ApiContext, ApiRequest, ApiResponse } from './request';
export { paginate, collectPages, fetchPage, MAX_PER_PAGE } from './pagination';
export type { PaginationMode } from './pagination';
export { apiError } from './errors';
