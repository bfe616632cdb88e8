export { answerOrRefusal, apiRequest, listRecords, responseData } from './request';
export type { ApiContext, ApiRequest, ApiResponse, PageKeys } from './types';
export { collectPages, fetchPage, idText, MAX_PER_PAGE, paginate } from './pagination';
export type { PaginationMode } from './pagination';
export { apiError, linesDescription, plainDescription, unreadableAnswer } from './errors';
export type { RefusalGuide } from './errors';
export { reuseRecentTokens } from './credential';
