// What the catalogue's resources declare their criteria with: how each endpoint's criteria travel, and their field.
export {
	BUYER_LEAD_CRITERIA,
	NEW_LISTING_CRITERIA,
	PRODUCT_CRITERIA,
	PRODUCT_SEARCH_CRITERIA,
	SEARCH_REQUEST_CRITERIA,
	SELLER_LEAD_CRITERIA,
	criteriaField,
	sentAsCriterion,
} from './field';
