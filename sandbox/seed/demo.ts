/**
 * Deterministic demo data. Ids are stable for a given size: site 1 starts at fixed bases
 * (users 1001, products 5001, customers 10001, transactions 7001, mandates 3001) and site 2,
 * whose size is fixed, at higher bases (users 9001, products 90001, customers 900001,
 * transactions 97001). Records created later take the highest id + 1.
 */
import type {
	Action,
	Agency,
	ApiClient,
	CalendarEvent,
	Customer,
	CustomerType,
	CriterionValue,
	Lot,
	Picture,
	Product,
	Transaction,
	TransactionKind,
	User,
} from '../model';
import { OFFER_STATUSES } from '../model';
import { toUtc } from '../http';
import { Store } from '../store';
import { COMPANY_NAMES, FEMALE_FIRST_NAMES, LAST_NAMES, MALE_FIRST_NAMES, Place, PLACES, STREETS, slug } from './names';
import { Random } from './random';
import { criterionValueOf, isRental, priceOf, productTitle } from '../resources/products';
import { withStatus } from '../resources/users';
import {
	buildReferentials,
	CRITERION_KEYS,
	HEATING_VALUES,
	LEAD_ACTION_TYPE_ID,
	ROOMS_KEYS,
	SHOWN_STATUS,
	zoneCode,
} from './referentials';

export interface DemoSizes {
	/** Customers of site 1 (site 2 always has 25). */
	customers: number;
	/** Products of site 1 (site 2 always has 10). */
	products: number;
	/** Users of site 1 (site 2 always has 3). */
	users: number;
}

export const DEMO_CLIENTS: readonly ApiClient[] = [
	{
		clientId: 'demo-client',
		clientSecret: 'demo-secret',
		name: 'Demo Portal',
		siteId: 1,
		packs: ['Full'],
		calendar: ['READ', 'WRITE'],
	},
	{
		clientId: 'limited-client',
		clientSecret: 'limited-secret',
		name: 'Listing Website',
		siteId: 1,
		packs: ['Properties', 'Websites'],
		calendar: ['READ'],
	},
	{
		clientId: 'solo-client',
		clientSecret: 'solo-secret',
		name: 'Solo Tools',
		siteId: 2,
		packs: ['Full'],
		calendar: [],
	},
];

const DEMO_PASSWORD = 'Demo-Password-2025!';

const AGENCIES: Agency[] = [
	{
		agency_id: 101,
		site_id: 1,
		name: 'Demo Realty Lyon Bellecour',
		address: '12 place Bellecour',
		postal_code: '69002',
		city: 'Lyon',
		siret: '81234567800011',
		email: 'lyon@demo-realty.example',
		phone: '0472000101',
	},
	{
		agency_id: 102,
		site_id: 1,
		name: 'Demo Realty Villeurbanne',
		address: '48 cours Émile Zola',
		postal_code: '69100',
		city: 'Villeurbanne',
		siret: '81234567800029',
		email: 'villeurbanne@demo-realty.example',
		phone: '0472000102',
	},
	{
		agency_id: 103,
		site_id: 1,
		name: 'Demo Realty Annecy Lac',
		address: '3 rue du Pâquier',
		postal_code: '74000',
		city: 'Annecy',
		siret: '81234567800037',
		email: 'annecy@demo-realty.example',
		phone: '0450000103',
	},
	{
		agency_id: 201,
		site_id: 2,
		name: 'Solo Immobilier Bordeaux',
		address: '27 cours de l’Intendance',
		postal_code: '33000',
		city: 'Bordeaux',
		siret: '90876543200014',
		email: 'contact@solo-immo.example',
		phone: '0556000201',
	},
];

interface SitePlan {
	siteId: number;
	agencyIds: number[];
	counts: DemoSizes;
	bases: { user: number; product: number; customer: number; transaction: number; mandate: number };
}

const SITE_2_SIZES: DemoSizes = { customers: 25, products: 10, users: 3 };
const DATA_START = Date.parse('2023-01-02T08:00:00Z');
const DATA_END = Date.parse('2025-10-31T18:00:00Z');
const DAY_MS = 86_400_000;

const PROPERTY_LABELS: Record<string, string> = {
	apartment: 'Appartement',
	house: 'Maison',
	land: 'Terrain',
	commercial: 'Local commercial',
	parking: 'Parking',
	building: 'Immeuble',
};
/** The seed's property kinds as the type criterion's codes. */
const PROPERTY_CODES: Record<string, string> = {
	apartment: 'Appartement',
	house: 'Maison',
	land: 'Terrain',
	commercial: 'LocalCommercial',
	parking: 'Parking',
	building: 'Immeuble',
};
/** The seed's listing states as the status criterion's codes. */
const STATUS_CODES: Record<string, string> = {
	active: SHOWN_STATUS,
	under_offer: 'SousOffre',
	sold: 'Vendu',
	archived: 'Archive',
};

export function generateDemoData(seed: number, sizes: DemoSizes): Store {
	const store = new Store(buildReferentials());
	const random = new Random(seed);
	for (const client of DEMO_CLIENTS) store.clients.set(client.clientId, { ...client });
	for (const agency of AGENCIES) store.agencies.set(agency.agency_id, { ...agency });
	store.sites.set(1, {
		site_id: 1,
		name: 'Demo Realty Network',
		agency_ids: [101, 102, 103],
		mandate_register_enabled: true,
		agenda_module_enabled: true,
	});
	store.sites.set(2, {
		site_id: 2,
		name: 'Solo Agency',
		agency_ids: [201],
		mandate_register_enabled: false,
		agenda_module_enabled: false,
	});

	const plans: SitePlan[] = [
		{
			siteId: 1,
			agencyIds: [101, 102, 103],
			counts: sizes,
			bases: { user: 1001, product: 5001, customer: 10001, transaction: 7001, mandate: 3001 },
		},
		{
			siteId: 2,
			agencyIds: [201],
			counts: SITE_2_SIZES,
			bases: { user: 9001, product: 90001, customer: 900001, transaction: 97001, mandate: 0 },
		},
	];
	for (const plan of plans) new SiteGenerator(store, random, plan).run();
	return store;
}

/**
 * What a few seeded events are besides a plain appointment, by position in their site: a weekly
 * series of four, a confidential one, an archived one.
 */
const CALENDAR_VARIETY: Record<number, (startsAt: string) => Partial<CalendarEvent>> = {
	0: (dtstart) => ({ recurrence: { dtstart, freq: 'weekly', interval: 1, count: 4, until: null } }),
	2: () => ({ is_confidential: true }),
	9: () => ({ archived: true }),
};

/** Fills one site; the steps run in a fixed order so the PRNG sequence is reproducible. */
class SiteGenerator {
	private readonly usersByAgency = new Map<number, number[]>();
	private readonly customerIdsByType = new Map<CustomerType, number[]>();

	constructor(
		private readonly store: Store,
		private readonly random: Random,
		private readonly plan: SitePlan,
	) {}

	run(): void {
		this.users();
		this.customers();
		this.products();
		this.customerActivity();
		this.transactions();
		if (this.store.sites.get(this.plan.siteId)?.mandate_register_enabled) this.mandates();
		this.calendarEvents();
	}

	private users(): void {
		const { agencyIds, counts, bases, siteId } = this.plan;
		for (let index = 0; index < counts.users; index++) {
			const id = bases.user + index;
			const agencyId = agencyIds[index % agencyIds.length];
			const isFemale = this.random.chance(0.5);
			const firstname = this.random.pick(isFemale ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES);
			const lastname = this.random.pick(LAST_NAMES);
			const firstOfAgency = index < agencyIds.length;
			const createdAt = this.dateBetween(DATA_START, DATA_START + 200 * DAY_MS);
			const user: User = {
				user_id: id,
				site_id: siteId,
				agency_id: agencyId,
				firstname,
				lastname,
				email: `${slug(firstname)}.${slug(lastname)}.${id}@${siteId === 1 ? 'demo-realty' : 'solo-immo'}.example`,
				phone: `06${pad(id * 7919, 8)}`,
				group_id: index === 0 ? 1 : firstOfAgency ? 2 : this.random.pick([3, 3, 3, 4]),
				type_ids: firstOfAgency ? [4] : this.random.sample([1, 2, 3, 5], this.random.int(1, 2)),
				gender_code: isFemale ? 'MME' : 'M',
				// The last user of a site of four or more is archived.
				...withStatus(index !== counts.users - 1 || counts.users < 4 ? 1 : 0),
				// The administrator and each agency's manager can delegate their work.
				delegation: index === 0 || firstOfAgency,
				profile_picture: null,
				signature_picture: null,
				password: DEMO_PASSWORD,
				logs: [0, 1, 2].map((step) => ({
					at: toUtc(new Date(DATA_END - (step * 3 + this.random.int(0, 2)) * DAY_MS)),
					action: this.random.pick(['login', 'customer.update', 'product.update', 'calendar.create']),
					ip: `192.0.2.${this.random.int(1, 254)}`,
				})),
				created_at: createdAt,
				updated_at: createdAt,
			};
			this.store.users.insert(user);
			append(this.usersByAgency, agencyId, id);
		}
	}

	private customers(): void {
		const { agencyIds, counts, bases, siteId } = this.plan;
		const { customerGroups, customerOrigins } = this.store.referentials;
		const span = (DATA_END - DATA_START) / Math.max(counts.customers, 1);
		for (let index = 0; index < counts.customers; index++) {
			const id = bases.customer + index;
			const agencyId = this.random.pick(agencyIds);
			const place = this.placeOf(agencyId);
			const gender = this.random.weighted<string>([
				['M', 44],
				['MME', 44],
				['M_MME', 7],
				['SOC', 3],
				['SCI', 2],
			]);
			const isEntity = gender === 'SOC' || gender === 'SCI';
			const firstname = isEntity ? null : this.random.pick(gender === 'MME' ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES);
			const lastname = isEntity ? this.random.pick(COMPANY_NAMES) : this.random.pick(LAST_NAMES);
			// Multiplying by a prime modulo 10^8 is a bijection: numbers look random yet never collide.
			const mobile = `0${this.random.pick([6, 7])}${pad(id * 7919 + 1_234_567, 8)}`;
			const landline = this.random.chance(0.4) ? `0${siteId === 1 ? 4 : 5}${pad(id * 6133 + 98_765, 8)}` : null;
			const created = DATA_START + index * span + this.random.int(0, 3_600_000);
			const type = this.random.weighted<CustomerType>([
				['buyer', 45],
				['seller', 20],
				['tenant', 20],
				['landlord', 10],
				['other', 5],
			]);
			const customer: Customer = {
				customers_id: id,
				site_id: siteId,
				agency_id: agencyId,
				firstname,
				lastname,
				// One customer in ten has no e-mail: 10008, 10018...
				email:
					index % 10 === 7
						? null
						: `${slug(firstname ?? 'contact')}.${slug(lastname)}.${id}@example.${this.random.pick(['com', 'org', 'net'])}`,
				phone: landline,
				mobile_phone: mobile,
				phones: landline
					? [
							{ type: 'mobile', number: mobile },
							{ type: 'home', number: landline },
						]
					: [{ type: 'mobile', number: mobile }],
				type,
				group_ids: this.random.sample(customerGroups, this.random.int(0, 2)).map((group) => group.id),
				origin_id: this.random.pick(customerOrigins).id,
				user_id: this.userOf(agencyId),
				gender_code: gender,
				created_at: toUtc(new Date(created)),
				updated_at: toUtc(new Date(Math.min(created + this.random.int(0, 90) * DAY_MS, DATA_END))),
				address: {
					street: `${this.random.int(1, 120)} ${this.random.pick(STREETS)}`,
					postal_code: place.postalCode,
					city: place.city,
					country: 'France',
				},
				color: this.random.chance(0.2) ? this.random.pick(['#E53935', '#43A047', '#1E88E5', '#FDD835']) : null,
				stop_sms: this.random.chance(0.08),
				// Not drawn, so that the data drawn after stays the same for a seed.
				rgpd_consent: id % 3 === 0,
				conformity: null,
				notary: this.random.chance(0.15)
					? {
							name: `Maître ${this.random.pick(LAST_NAMES)}`,
							city: place.city,
							phone: `0${siteId === 1 ? 4 : 5}${pad(id * 11, 8)}`,
						}
					: null,
				relations:
					index > 0 && this.random.chance(0.05)
						? [{ customers_id: id - 1, relation: this.random.pick(['spouse', 'partner', 'relative']) }]
						: [],
			};
			this.store.customers.insert(customer);
			append(this.customerIdsByType, type, id);
		}
	}

	private products(): void {
		const { agencyIds, counts, bases, siteId } = this.plan;
		const span = (DATA_END - DATA_START) / Math.max(counts.products, 1);
		for (let index = 0; index < counts.products; index++) {
			const id = bases.product + index;
			const agencyId = agencyIds[index % agencyIds.length];
			const place = this.placeOf(agencyId);
			const transactionType = this.random.chance(0.7) ? 'sale' : 'rental';
			const propertyType =
				transactionType === 'sale'
					? this.random.weighted<string>([
							['apartment', 45],
							['house', 25],
							['land', 6],
							['commercial', 6],
							['parking', 8],
							['building', 10],
						])
					: this.random.weighted<string>([
							['apartment', 70],
							['house', 15],
							['commercial', 10],
							['parking', 5],
						]);
			const surface = this.surfaceOf(propertyType);
			const rooms = ['apartment', 'house'].includes(propertyType) ? Math.max(1, Math.round(surface / 22)) : 0;
			const price =
				transactionType === 'sale'
					? Math.round((surface * place.pricePerSquareMetre * this.random.int(85, 115)) / 100 / 1000) * 1000
					: Math.round((surface * place.pricePerSquareMetre) / 380 / 10) * 10;
			const created = DATA_START + index * span;
			const status = this.random.weighted<string>([
				['active', 60],
				['under_offer', 15],
				['sold', 15],
				['archived', 10],
			]);
			const title = `${PROPERTY_LABELS[propertyType]}${rooms ? ` ${rooms} pièces` : ''} - ${place.area}`;
			const criteria = this.productCriteria(place, transactionType, propertyType, price, surface, rooms);
			const product: Product = {
				product_id: id,
				site_id: siteId,
				agency_id: agencyId,
				model: `${transactionType === 'sale' ? 'VA' : 'LO'}${id}`,
				customers_id: null,
				criteria: this.byKeys([
					...criteria,
					[CRITERION_KEYS.title, title],
					[CRITERION_KEYS.status, STATUS_CODES[status]],
				]),
				views: this.random.int(0, 2500),
				created_at: toUtc(new Date(created)),
				last_modified: toUtc(new Date(Math.min(created + this.random.int(0, 60) * DAY_MS, DATA_END))),
				pictures: [],
				lots: [],
			};
			product.pictures = this.pictures(product);
			if (propertyType === 'building') product.lots = this.lots(product, price, surface);
			this.store.products.insert(product);
		}
	}

	/** Criteria given by XML key as the site's `{id, value}`, ascending by id. */
	private byKeys(entries: Array<[string, CriterionValue['value']]>): CriterionValue[] {
		const definitions = this.store.productCriteriaOf(this.plan.siteId);
		return entries
			.map(([xml, value]) => ({ id: definitions.find((definition) => definition.xml === xml)!.id, value }))
			.sort((a, b) => a.id - b.id);
	}

	private productCriteria(
		place: Place,
		transactionType: string,
		propertyType: string,
		price: number,
		surface: number,
		rooms: number,
	): Array<[string, CriterionValue['value']]> {
		const K = CRITERION_KEYS;
		const zone = this.store.referentials.zones.find((candidate) => candidate.id === place.zoneId);
		const criteria: Array<[string, CriterionValue['value']]> = [
			[K.price, price],
			[K.surface, surface],
			[K.propertyType, PROPERTY_CODES[propertyType]],
			[K.transactionType, transactionType === 'sale' ? 'Vente' : 'Location'],
			[K.city, place.city],
			[K.postalCode, place.postalCode],
			[K.zone, zone ? [zoneCode(zone)] : []],
		];
		const roomsKey = (ROOMS_KEYS[this.plan.siteId] ?? ROOMS_KEYS[1]).xml;
		if (rooms) criteria.push([roomsKey, rooms], [K.bedrooms, Math.max(rooms - 1, 1)]);
		if (['apartment', 'house', 'commercial', 'building'].includes(propertyType)) {
			const energy = this.random.int(45, 480);
			const emissions = this.random.int(3, 110);
			criteria.push(
				[K.dpeLetter, energyLetter(energy, [70, 110, 180, 250, 330, 420])],
				[K.dpeValue, energy],
				[K.gesLetter, energyLetter(emissions, [6, 11, 30, 50, 70, 100])],
				[K.gesValue, emissions],
				[K.constructionYear, this.random.int(1890, 2023)],
				[K.heating, this.random.pick(HEATING_VALUES.map(([code]) => code))],
			);
		}
		if (propertyType === 'apartment')
			criteria.push([K.elevator, this.random.chance(0.6)], [K.floor, this.random.int(0, 8)]);
		if (propertyType === 'house') criteria.push([K.garden, this.random.chance(0.8)]);
		return criteria;
	}

	private pictures(product: Product): Picture[] {
		const count = this.random.int(1, 4);
		return Array.from({ length: count + (this.random.chance(0.3) ? 1 : 0) }, (_, index) => {
			const pictureId = this.store.nextPictureId();
			return {
				picture_id: pictureId,
				url: `https://media.agency-crm.invalid/sites/${product.site_id}/products/${product.product_id}/${pictureId}.jpg`,
				width: 1600,
				height: 1067,
				size: this.random.int(250_000, 1_800_000),
				is_public: index < count,
				title: index === 0 ? 'Façade' : null,
			};
		});
	}

	private lots(product: Product, price: number, surface: number): Lot[] {
		return Array.from({ length: this.random.int(2, 4) }, (_, index) => {
			const lotSurface = this.random.int(25, 90);
			return {
				lot_id: this.store.nextLotId(),
				product_id: product.product_id,
				label: `Lot ${index + 1} - ${this.random.pick(['T1', 'T2', 'T3', 'T4'])}`,
				surface: lotSurface,
				rooms: Math.max(1, Math.round(lotSurface / 22)),
				price: Math.round((price * lotSurface) / surface / 1000) * 1000,
			};
		});
	}

	/** Consents, search requests, follow-ups and actions of the site's customers. */
	private customerActivity(): void {
		const { siteId } = this.plan;
		const products = this.store.products.forSite(siteId);
		const actionTypes = this.store.referentials.actionTypes.filter((type) => type.id !== LEAD_ACTION_TYPE_ID);
		for (const customer of this.store.customers.forSite(siteId)) {
			const id = customer.customers_id;
			if (this.random.chance(0.3)) {
				const collectedAt = customer.created_at;
				const revoked = this.random.chance(0.1);
				this.store.consents.set(id, {
					customers_id: id,
					status: revoked ? 'revoked' : 'collected',
					reason: this.random.pick([
						'Formulaire signé en agence',
						'Accord verbal lors de l’appel',
						'Case cochée sur le site web',
					]),
					collected_at: collectedAt,
					revoked_at: revoked ? customer.updated_at : null,
					// From the id, not the random sequence: the rest of the demo data stays as it was.
					accept_outside_hours: id % 2 === 0,
					proof_file_names: this.random.chance(0.5) ? [`consent-${id}.pdf`] : [],
				});
			}
			if ((customer.type === 'buyer' || customer.type === 'tenant') && this.random.chance(0.6))
				this.searchRequest(customer);
			if (products.length > 0 && this.random.chance(0.15)) {
				for (const product of this.random.sample(products, this.random.int(1, 2))) {
					this.store.putFollowUp({
						customers_id: id,
						product_id: product.product_id,
						rating: this.random.int(0, 5),
						status: this.random.pick(['new', 'contacted', 'visit_planned', 'visited']),
						comment: null,
						created_at: customer.updated_at,
						updated_at: customer.updated_at,
					});
				}
			}
			if (this.random.chance(0.4)) {
				for (let count = this.random.int(1, 3); count > 0; count--)
					this.action(
						actionTypes,
						{ customers_id: id, product_id: null, user_id: customer.user_id },
						customer.created_at,
					);
			}
		}
		for (const product of products) {
			if (this.random.chance(0.5))
				this.action(
					actionTypes,
					{ customers_id: null, product_id: product.product_id, user_id: this.userOf(product.agency_id) },
					product.created_at,
				);
		}
	}

	private searchRequest(customer: Customer): void {
		const place = this.placeOf(customer.agency_id);
		const transactionType = customer.type === 'tenant' ? 'rental' : 'sale';
		const budget = transactionType === 'sale' ? this.random.int(15, 90) * 10_000 : this.random.int(50, 250) * 10;
		const roomsKey = (ROOMS_KEYS[this.plan.siteId] ?? ROOMS_KEYS[1]).xml;
		const zone = this.store.referentials.zones.find((candidate) => candidate.id === place.zoneId);
		this.store.addSearchRequest({
			search_request_id: this.store.searchRequests.nextId(),
			site_id: customer.site_id,
			customers_id: customer.customers_id,
			wording: `Recherche ${transactionType === 'sale' ? 'achat' : 'location'} - ${place.area}`,
			alert_email: false,
			comment: null,
			is_active: this.random.chance(0.85),
			criteria: [
				{ id: CRITERION_KEYS.price, operator: 'INFERIEUR', value: String(budget) },
				{ id: roomsKey, operator: 'SUPERIEUR', value: String(this.random.int(1, 5)) },
				{
					id: CRITERION_KEYS.propertyType,
					operator: 'EGAL',
					value: PROPERTY_CODES[this.random.sample(['apartment', 'house'], this.random.int(1, 2))[0]],
				},
				{
					id: CRITERION_KEYS.transactionType,
					operator: 'EGAL',
					value: transactionType === 'sale' ? 'Vente' : 'Location',
				},
				{ id: CRITERION_KEYS.zone, operator: 'EGAL', value: zone ? zoneCode(zone) : '' },
			],
			key_points: {
				pros: this.random.sample(['balcon', 'lumineux', 'proche transports', 'calme', 'parking'], 2),
				cons: this.random.chance(0.5) ? ['rez-de-chaussée'] : [],
			},
			areas: [place.zoneId],
			created_at: customer.created_at,
			updated_at: customer.updated_at,
		});
	}

	private action(
		actionTypes: { id: number }[],
		subject: Pick<Action, 'customers_id' | 'product_id' | 'user_id'>,
		after: string,
	): void {
		const start = Date.parse(after);
		this.store.addAction({
			action_id: this.store.actions.nextId(),
			site_id: this.plan.siteId,
			action_type_id: this.random.pick(actionTypes).id,
			...subject,
			date: toUtc(new Date(Math.min(start + this.random.int(0, 120) * DAY_MS, DATA_END))),
			comment: this.random.pick([
				null,
				'Rappeler en fin de semaine',
				'Intéressé, attend le financement',
				'Visite à programmer',
				'Message laissé',
			]),
		});
	}

	private transactions(): void {
		const { bases, counts, siteId } = this.plan;
		const products = this.store.products.forSite(siteId);
		const sales = products.filter((product) => !isRental(this.store, product));
		const rentals = products.filter((product) => isRental(this.store, product));
		const plan: [TransactionKind, number][] = [
			['agreement', Math.max(3, Math.round(counts.products / 6))],
			['offer', Math.max(4, Math.round(counts.products / 5))],
			['lease', Math.max(2, Math.round(counts.products / 10))],
		];
		let id = bases.transaction;
		for (const [kind, count] of plan) {
			const pool = kind === 'lease' ? rentals : sales;
			if (pool.length === 0) continue;
			for (let index = 0; index < count; index++)
				this.store.transactions.insert(this.transaction(id++, kind, index, this.random.pick(pool)));
		}
	}

	private transaction(id: number, kind: TransactionKind, index: number, product: Product): Transaction {
		const price = Math.round(
			((priceOf(this.store, product) ?? 0) * (kind === 'offer' ? this.random.int(90, 100) : 100)) / 100,
		);
		const fees = kind === 'lease' ? price : Math.round(price * 0.05);
		const signed = Date.parse(product.last_modified) + this.random.int(1, 30) * DAY_MS;
		const paymentStatus = this.random.pick(['pending', 'invoiced', 'paid']);
		const transaction: Transaction = {
			compromis_id: id,
			site_id: product.site_id,
			kind,
			agency_id: product.agency_id,
			product_id: product.product_id,
			price,
			assigned_user: this.userOf(product.agency_id),
			fees_user: Math.round(fees * 0.3),
			fees_agency: Math.round(fees * 0.7),
			fees_user_agency: 0,
			fees_customer_agency: kind === 'lease' ? Math.round(fees * 0.5) : 0,
			conformity: this.random.chance(0.7),
			payment_status: paymentStatus,
			payment_date: paymentStatus === 'paid' ? new Date(signed + 30 * DAY_MS).toISOString().slice(0, 10) : null,
			invoice_number: paymentStatus === 'pending' ? null : `FA-${new Date(signed).getUTCFullYear()}-${id}`,
			invoice_date: paymentStatus === 'pending' ? null : new Date(signed + 7 * DAY_MS).toISOString().slice(0, 10),
			created_at: toUtc(new Date(signed)),
			updated_at: toUtc(new Date(signed)),
			buyer_id: this.customerOfType(kind === 'lease' ? 'tenant' : 'buyer'),
			seller_id: this.customerOfType(kind === 'lease' ? 'landlord' : 'seller'),
			suspensive_conditions:
				kind === 'agreement'
					? [
							{
								label: 'Obtention du prêt',
								deadline: new Date(signed + 45 * DAY_MS).toISOString().slice(0, 10),
								fulfilled: this.random.chance(0.6),
							},
							{
								label: 'Absence de servitude',
								deadline: new Date(signed + 30 * DAY_MS).toISOString().slice(0, 10),
								fulfilled: true,
							},
						]
					: [],
		};
		// Cycling through the statuses guarantees that every value appears in the demo data.
		if (kind === 'offer') transaction.offer_status = OFFER_STATUSES[index % OFFER_STATUSES.length];
		return transaction;
	}

	private mandates(): void {
		const { bases, siteId } = this.plan;
		let id = bases.mandate;
		for (const product of this.store.products.forSite(siteId)) {
			const archived = criterionValueOf(this.store, product, CRITERION_KEYS.status) === STATUS_CODES.archived;
			if (isRental(this.store, product) || archived) continue;
			const ownerId = this.customerOfType('seller');
			const owner = ownerId === null ? undefined : this.store.customers.get(ownerId);
			const start = Date.parse(product.created_at);
			this.store.mandates.insert({
				mandat_id: id,
				site_id: siteId,
				agency: product.agency_id,
				first_name: owner?.firstname ?? '',
				last_name: owner?.lastname ?? '',
				is_amendment: this.random.chance(0.1),
				number: `M${new Date(start).getUTCFullYear()}-${String(id).padStart(5, '0')}`,
				mandate_type: this.random.weighted<string>([
					['simple', 60],
					['exclusive', 30],
					['semi_exclusive', 10],
				]),
				product_id: product.product_id,
				customers_id: ownerId,
				start_date: new Date(start).toISOString().slice(0, 10),
				end_date: new Date(start + this.random.pick([90, 180, 365]) * DAY_MS).toISOString().slice(0, 10),
			});
			id++;
		}
	}

	/** Four events a day or so per agency; a few (by position, so the PRNG sequence stays the same) show what the agenda can hold. */
	private calendarEvents(): void {
		const { siteId, agencyIds } = this.plan;
		const products = this.store.products.forSite(siteId);
		const customers = this.store.customers.forSite(siteId);
		const eventTypes = this.store.referentials.eventTypes;
		for (let index = 0; index < 4 * agencyIds.length; index++) {
			const organizer = this.userOf(agencyIds[index % agencyIds.length]);
			if (organizer === null || products.length === 0 || customers.length === 0) continue;
			const type = this.random.pick(eventTypes);
			const starts = Date.parse('2025-11-03T08:00:00Z') + index * DAY_MS + this.random.int(0, 8) * 3_600_000;
			const product = this.random.pick(products);
			const contact = this.random.pick(customers);
			const event: CalendarEvent = {
				id: this.store.calendarEvents.nextId(),
				site_id: siteId,
				type: type.key,
				starts_at: toUtc(new Date(starts)),
				ends_at: toUtc(new Date(starts + 3_600_000)),
				all_day: false,
				title: `${type.label} - ${productTitle(this.store, product)}`,
				location: String(criterionValueOf(this.store, product, CRITERION_KEYS.city) ?? ''),
				location_geo: null,
				sequence_duration: null,
				gathering_gauge: null,
				commute_duration: this.random.pick([null, 15, 30]),
				communicate_location: true,
				is_confidential: false,
				remind_time_in_min: 30,
				appointment_mode: type.key === 'VISIT' ? 'PRODUCT' : 'OFFICE',
				users: [{ ext_user_id: organizer, is_creator: true, is_organizer: true }],
				products: [{ ext_product_id: String(product.product_id), ext_domain_id: String(siteId) }],
				contacts: [{ ext_contact_id: String(contact.customers_id), ext_domain_id: String(siteId) }],
				notes: null,
				visio_url: null,
				visit360_organizer_url: null,
				visit360_participation_url: null,
				archived: false,
				parent_id: null,
				recurrence: null,
				...CALENDAR_VARIETY[index]?.(toUtc(new Date(starts))),
			};
			this.store.calendarEvents.insert(event);
		}
	}

	private placeOf(agencyId: number): Place {
		return this.random.pick(PLACES.filter((place) => place.agencyId === agencyId));
	}

	private userOf(agencyId: number): number | null {
		const users = this.usersByAgency.get(agencyId);
		return users ? this.random.pick(users) : null;
	}

	private customerOfType(type: CustomerType): number | null {
		const ids = this.customerIdsByType.get(type);
		return ids ? this.random.pick(ids) : null;
	}

	private surfaceOf(propertyType: string): number {
		switch (propertyType) {
			case 'house':
				return this.random.int(80, 220);
			case 'land':
				return this.random.int(300, 1500);
			case 'commercial':
				return this.random.int(40, 300);
			case 'parking':
				return this.random.int(12, 18);
			case 'building':
				return this.random.int(250, 900);
			default:
				return this.random.int(18, 140);
		}
	}

	private dateBetween(from: number, to: number): string {
		return toUtc(new Date(from + Math.floor(this.random.next() * (to - from))));
	}
}

function energyLetter(value: number, thresholds: number[]): string {
	const index = thresholds.findIndex((threshold) => value <= threshold);
	return 'ABCDEFG'[index === -1 ? 6 : index];
}

function append<K>(map: Map<K, number[]>, key: K, id: number): void {
	const ids = map.get(key);
	if (ids) ids.push(id);
	else map.set(key, [id]);
}

function pad(value: number, length: number): string {
	return String(value % 10 ** length).padStart(length, '0');
}
