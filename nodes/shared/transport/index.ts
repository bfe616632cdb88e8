export { apiRequest, responseData } from './request';
export type { ApiContext, ApiRequest, ApiResponse } from './request';
export { collectPages, fetchPage, MAX_PER_PAGE } from './pagination';
export type { PageKeys, PaginationMode } from './pagination';
export { apiError, linesDescription, plainDescription, unreadableAnswer } from './errors';
export type { RefusalGuide } from './errors';
export { reuseRecentTokens } from './credential';
