import type { RiskLevel, ZipAnalysis } from '@homereport/contracts';

/**
 * Generates plausible, clearly-labelled sample analyses. Deterministic: the figures of a ZIP code
 * depend only on the seed and the ZIP code, never on order or clock. The figures hold together:
 * - the median sale price follows the tier and the place's price level;
 * - the 12 monthly medians end at the median sale price and climb (or fall) at the stated one-year
 *   appreciation, with a small seasonal swing;
 * - the gross yield is twelve months of the three-bedroom rent over the median sale price, and the
 *   smaller units rent for less in steady proportions;
 * - income, education, unemployment, days on market and supply follow the tier.
 */

const TIER_LABELS = {
  1: 'TIER 1: Ultra-Premium',
  2: 'TIER 2: High-Growth',
  3: 'TIER 3: Emerging',
} as const;
type TierNumber = keyof typeof TIER_LABELS;

export interface PlaceInput {
  zip: string;
  city: string;
  state: string;
  neighborhood: string;
  tier: TierNumber;
  /** Median sale price to anchor on, in dollars. */
  price: number;
  /** One-year appreciation to use instead of a generated one. */
  appreciation?: number;
}

interface GenerateOptions {
  seed: string;
  /** The month the figures run to, YYYY-MM. */
  throughMonth: string;
}

const DEFAULT_OPTIONS: GenerateOptions = { seed: 'homereport-sample-v1', throughMonth: '2025-06' };

/** Rent of each unit size as a share of the three-bedroom rent. */
export const RENT_SHARE = { studio: 0.5, oneBedroom: 0.62, twoBedroom: 0.8, threeBedroom: 1 } as const;

// --- deterministic randomness ------------------------------------------------------------

function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for sample figures. */
function seededRandom(seed: string): () => number {
  let a = hashString(seed);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Dice {
  constructor(private readonly next: () => number) {}
  between(low: number, high: number): number {
    return low + (high - low) * this.next();
  }
  int(low: number, high: number): number {
    return Math.floor(this.between(low, high + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  /** `count` different items, in a stable order. */
  some<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const chosen: T[] = [];
    while (chosen.length < count && pool.length > 0)
      chosen.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0] as T);
    return chosen;
  }
  /** Roughly normal (sum of three uniforms), mean 0, sd about `sd`. */
  normal(sd: number): number {
    return (this.next() + this.next() + this.next() - 1.5) * 2 * sd;
  }
}

// --- rounding and words ---------------------------------------------------------------

const round = (value: number, step: number) => Math.round(value / step) * step;
// `+ 0` turns -0 into 0, so a value survives a JSON round trip unchanged.
const fraction = (value: number, digits = 3) => Number(value.toFixed(digits)) + 0;
const usd = (value: number) => `$${Math.round(value).toLocaleString('en-US')}`;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

function monthsEndingAt(throughMonth: string, count: number): string[] {
  const [year, month] = throughMonth.split('-').map(Number) as [number, number];
  const out: string[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const index = year * 12 + (month - 1) - back;
    out.push(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`);
  }
  return out;
}

const MONTH_YEAR = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "June 2025" for "2025-06". */
const monthName = (yyyyMm: string) => {
  const [year, month] = yyyyMm.split('-').map(Number) as [number, number];
  return MONTH_YEAR.format(Date.UTC(year, month - 1));
};

function lastDayOf(yyyyMm: string): string {
  const [year, month] = yyyyMm.split('-').map(Number) as [number, number];
  return `${yyyyMm}-${String(new Date(Date.UTC(year, month, 0)).getUTCDate()).padStart(2, '0')}`;
}

// --- regional character ------------------------------------------------------------------

const HURRICANE = new Set(['FL', 'LA', 'TX', 'SC', 'NC', 'MS', 'AL', 'GA']);
const WILDFIRE = new Set(['CA', 'CO', 'OR', 'WA', 'ID', 'MT', 'WY', 'NM', 'AZ', 'UT', 'NV']);
const HIGH_TAX = new Set(['NJ', 'IL', 'CT', 'NY', 'TX', 'NH', 'VT', 'WI', 'NE', 'OH', 'PA', 'MI']);
const RENT_RULES = new Set(['CA', 'NY', 'OR', 'DC', 'NJ', 'MN', 'ME', 'MD', 'WA']);
const RUST_BELT = new Set(['MI', 'OH', 'PA', 'NY', 'WI', 'IN', 'IL', 'WV', 'MO']);
const WATER = new Set(['AZ', 'NV', 'UT', 'NM']);
/** Cities of hurricane states far enough inland that storm surge is not their insurance story. */
const INLAND_CITIES = new Set([
  'Dallas',
  'San Antonio',
  'El Paso',
  'Austin',
  'Atlanta',
  'Birmingham',
  'Raleigh',
  'Charlotte',
  'Columbia',
  'Montgomery',
  'Jackson',
]);

const INDUSTRIES: Record<string, string[]> = {
  CA: ['Technology', 'Entertainment', 'Professional services', 'Healthcare'],
  WA: ['Technology', 'Aerospace', 'Healthcare', 'Retail'],
  NY: ['Finance', 'Media', 'Healthcare', 'Education'],
  MA: ['Biotechnology', 'Higher education', 'Finance', 'Healthcare'],
  CT: ['Finance', 'Insurance', 'Healthcare', 'Professional services'],
  NJ: ['Pharmaceuticals', 'Finance', 'Healthcare', 'Logistics'],
  DC: ['Federal government', 'Professional services', 'Education', 'Healthcare'],
  TX: ['Energy', 'Technology', 'Healthcare', 'Logistics'],
  FL: ['Tourism', 'Healthcare', 'Finance', 'Construction'],
  IL: ['Finance', 'Healthcare', 'Manufacturing', 'Logistics'],
  CO: ['Technology', 'Tourism', 'Aerospace', 'Healthcare'],
  AZ: ['Healthcare', 'Semiconductors', 'Construction', 'Tourism'],
  GA: ['Logistics', 'Film production', 'Finance', 'Healthcare'],
  TN: ['Healthcare management', 'Music and entertainment', 'Logistics', 'Manufacturing'],
  NC: ['Banking', 'Technology', 'Healthcare', 'Higher education'],
  SC: ['Tourism', 'Manufacturing', 'Healthcare', 'Port logistics'],
  MI: ['Automotive', 'Healthcare', 'Advanced manufacturing', 'Education'],
  OH: ['Healthcare', 'Manufacturing', 'Insurance', 'Education'],
  PA: ['Healthcare', 'Education', 'Manufacturing', 'Finance'],
  MO: ['Healthcare', 'Financial services', 'Manufacturing', 'Logistics'],
  WI: ['Manufacturing', 'Healthcare', 'Brewing and food processing', 'Insurance'],
  IN: ['Manufacturing', 'Life sciences', 'Logistics', 'Healthcare'],
  NV: ['Hospitality', 'Gaming', 'Logistics', 'Construction'],
  UT: ['Technology', 'Healthcare', 'Tourism', 'Finance'],
  ID: ['Technology', 'Agriculture', 'Healthcare', 'Construction'],
  OR: ['Technology', 'Apparel', 'Healthcare', 'Manufacturing'],
  MN: ['Healthcare', 'Retail', 'Medical devices', 'Finance'],
  LA: ['Tourism', 'Energy', 'Port logistics', 'Healthcare'],
  WY: ['Tourism', 'Energy', 'Real estate', 'Hospitality'],
};
const GENERIC_INDUSTRIES = ['Healthcare', 'Education', 'Retail', 'Government', 'Manufacturing', 'Logistics'];

// --- tiers ------------------------------------------------------------------------------

interface TierProfile {
  appreciation: [mean: number, sd: number];
  grossYield: [number, number];
  priceToIncome: [number, number];
  incomeFloor: number;
  bachelors: [number, number];
  unemployment: [number, number];
  daysOnMarket: [number, number];
  monthsOfSupply: [number, number];
  squareFeet: [number, number];
  population: [number, number];
  risk: RiskLevel[];
  expectedReturn: [number, number];
  profiles: string[];
}

const TIERS: Record<TierNumber, TierProfile> = {
  1: {
    appreciation: [0.038, 0.018],
    grossYield: [0.022, 0.036],
    priceToIncome: [9, 16],
    incomeFloor: 110_000,
    bachelors: [0.66, 0.88],
    unemployment: [0.022, 0.034],
    daysOnMarket: [38, 85],
    monthsOfSupply: [3.2, 6.2],
    squareFeet: [2300, 3800],
    population: [5000, 32000],
    risk: ['low', 'low-medium'],
    expectedReturn: [0.04, 0.075],
    profiles: [
      'Capital preservation and long-term appreciation in a supply-constrained luxury market',
      'Trophy-asset ownership with durable demand from high-net-worth buyers',
      'Long-horizon wealth storage; appreciation matters more than rental income',
    ],
  },
  2: {
    appreciation: [0.052, 0.022],
    grossYield: [0.045, 0.064],
    priceToIncome: [4.4, 7],
    incomeFloor: 55_000,
    bachelors: [0.45, 0.74],
    unemployment: [0.027, 0.044],
    daysOnMarket: [19, 46],
    monthsOfSupply: [1.8, 3.8],
    squareFeet: [1500, 2300],
    population: [12000, 52000],
    risk: ['low-medium', 'medium'],
    expectedReturn: [0.07, 0.115],
    profiles: [
      'Growth-oriented buy-and-hold with strong renter demand from in-migration',
      'Balanced appreciation and income in a fast-growing job market',
      'Early-cycle growth plays near expanding employment centers',
    ],
  },
  3: {
    appreciation: [0.061, 0.03],
    grossYield: [0.075, 0.112],
    priceToIncome: [2.6, 4.4],
    incomeFloor: 30_000,
    bachelors: [0.17, 0.44],
    unemployment: [0.043, 0.085],
    daysOnMarket: [28, 72],
    monthsOfSupply: [2.4, 5.4],
    squareFeet: [1150, 1800],
    population: [8000, 42000],
    risk: ['medium', 'medium', 'medium-high'],
    expectedReturn: [0.1, 0.165],
    profiles: [
      'Cash-flow investing with value-add upside in a revitalizing neighborhood',
      'High-yield rentals for hands-on investors comfortable with renovation',
      'Entry-price market where rent covers the numbers and growth is the bonus',
    ],
  },
};

const SEGMENTS: Record<TierNumber, { segment: string; rationale: string }[]> = {
  1: [
    {
      segment: 'Renovated single-family homes',
      rationale: 'Move-in-ready homes sell fastest to buyers who will not take on a renovation.',
    },
    {
      segment: 'Luxury condominiums',
      rationale: 'Lock-and-leave buyers and downsizers keep demand steady even when detached homes slow.',
    },
    {
      segment: 'Teardown and new construction lots',
      rationale: 'Land is the scarce asset here; new builds command a clear premium over older stock.',
    },
    {
      segment: 'Furnished executive rentals',
      rationale: 'Relocating executives and long-stay visitors pay a premium for furnished, flexible leases.',
    },
  ],
  2: [
    {
      segment: 'Townhomes near job centers',
      rationale: 'Young professionals priced out of detached homes rent and buy townhomes close to work.',
    },
    {
      segment: 'Small multifamily (2-4 units)',
      rationale: 'Rents from several units cushion vacancy and financing stays residential.',
    },
    {
      segment: 'Starter single-family homes',
      rationale: 'In-migrating households compete for entry-level homes, supporting both resale and rent.',
    },
    {
      segment: 'Accessory dwelling units',
      rationale: 'Permissive ADU rules let owners add a rentable unit on land they already hold.',
    },
  ],
  3: [
    {
      segment: 'Value-add single-family rentals',
      rationale: 'Purchase prices leave room for renovation while rents still cover the financing.',
    },
    {
      segment: 'Small multifamily (2-4 units)',
      rationale: 'Low cost per door and steady renter demand give the strongest cash-on-cash returns.',
    },
    {
      segment: 'Voucher-backed rentals',
      rationale: 'Housing vouchers pay at or above market rent here, with reliable payment.',
    },
    {
      segment: 'Historic rehabilitation',
      rationale: 'Historic tax credits and a revived commercial corridor reward careful restoration.',
    },
  ],
};

// --- the generator ------------------------------------------------------------------------

const bump = (level: RiskLevel, steps: number): RiskLevel => {
  const order: RiskLevel[] = ['low', 'low-medium', 'medium', 'medium-high', 'high'];
  return order[Math.max(0, Math.min(order.length - 1, order.indexOf(level) + steps))] as RiskLevel;
};

/*
 * Each part below draws from the same dice, so the order of the calls in generateAnalysis is
 * part of the output: a draw moved earlier or later changes every figure after it (and the
 * committed sample with them; generator.test.ts compares).
 */

/** Market figures: price, appreciation, size, speed and supply. */
function drawMarket(place: PlaceInput, tier: TierProfile, dice: Dice) {
  const price = round(place.price * dice.between(0.97, 1.03), place.price >= 1_000_000 ? 5000 : 1000);
  const appreciation = fraction(
    place.appreciation ?? Math.max(-0.06, Math.min(0.14, tier.appreciation[0] + dice.normal(tier.appreciation[1]))),
  );
  const yearOverYear = fraction(appreciation + dice.normal(0.008));
  const squareFeet = dice.between(...tier.squareFeet);
  const pricePerSquareFoot = Math.round(price / squareFeet);
  const daysOnMarket = dice.int(...tier.daysOnMarket);
  const monthsOfSupply = Number(dice.between(...tier.monthsOfSupply).toFixed(1));
  const population = round(dice.between(...tier.population), 10);
  const activeListings = Math.max(8, Math.round(population * dice.between(0.0025, 0.006)));
  const newListings = Math.max(3, Math.round((activeListings / monthsOfSupply) * dice.between(0.95, 1.2)));
  return {
    price,
    appreciation,
    yearOverYear,
    pricePerSquareFoot,
    daysOnMarket,
    monthsOfSupply,
    population,
    activeListings,
    newListings,
  };
}
type Market = ReturnType<typeof drawMarket>;

/** The people: income follows the price, the rest the tier; industries the state. */
function drawPeople(state: string, tier: TierProfile, price: number, dice: Dice) {
  const income = round(Math.max(tier.incomeFloor, Math.min(250_000, price / dice.between(...tier.priceToIncome))), 100);
  const bachelors = fraction(dice.between(...tier.bachelors));
  const unemployment = fraction(dice.between(...tier.unemployment));
  const commute = Math.round(dice.between(21, 37));
  const industries = dice.some(INDUSTRIES[state] ?? GENERIC_INDUSTRIES, 3);
  if (!industries.includes('Healthcare')) industries.push('Healthcare');
  return { income, bachelors, unemployment, commute, industries };
}

/** Prices month by month: the last is the median sale price; a year earlier it was price / (1 + a). */
function drawMonthlyPrices({ price, appreciation }: Market, throughMonth: string, dice: Dice) {
  return monthsEndingAt(throughMonth, 12).map((month, i) => {
    const monthsBack = 11 - i;
    const trend = price / (1 + appreciation) ** (monthsBack / 12);
    const monthOfYear = Number(month.slice(5)) - 1;
    const seasonal = 0.006 * Math.sin((2 * Math.PI * (monthOfYear - 2)) / 12);
    const noise = monthsBack === 0 ? 0 : dice.normal(0.003);
    const value = monthsBack === 0 ? price : trend * (1 + seasonal + noise);
    return { month, medianPrice: round(value, price >= 1_000_000 ? 1000 : 100) };
  });
}

/** Rents: the gross yield is 12 x three-bedroom rent / median price. */
function drawRents(price: number, tier: TierProfile, dice: Dice) {
  const targetYield = dice.between(...tier.grossYield);
  const threeBedroom = round((targetYield * price) / 12, 5);
  const rent = (share: number) => round(threeBedroom * share * dice.between(0.985, 1.015), 5);
  const averageRent = {
    studio: rent(RENT_SHARE.studio),
    oneBedroom: rent(RENT_SHARE.oneBedroom),
    twoBedroom: rent(RENT_SHARE.twoBedroom),
    threeBedroom,
  };
  return { averageRent, grossYield: fraction((12 * threeBedroom) / price, 4) };
}

type RiskFactors = Record<string, { level: RiskLevel; explanation: string }>;

/** The risks of the place: its state's exposures, then its tier's, then interest rates for all. */
function drawRiskFactors(place: PlaceInput, dice: Dice): RiskFactors {
  const { state } = place;
  const riskFactors: RiskFactors = {};
  if (HURRICANE.has(state) && !INLAND_CITIES.has(place.city))
    riskFactors['Insurance and storm exposure'] = {
      level: dice.pick(['medium-high', 'high'] as const),
      explanation: `Hurricane and flood exposure keeps homeowner's insurance premiums in ${state} rising faster than rents; budget for them before buying.`,
    };
  else if (HURRICANE.has(state))
    riskFactors['Insurance costs'] = {
      level: 'medium',
      explanation: `Hail, wind and statewide storm losses have pushed premiums up across ${state}, inland too.`,
    };
  if (WILDFIRE.has(state))
    riskFactors['Wildfire and insurance availability'] = {
      level: dice.pick(['medium', 'medium-high'] as const),
      explanation: 'Insurers have been pulling back from wildfire-prone areas; confirm coverage and its price early.',
    };
  if (WATER.has(state))
    riskFactors['Water supply'] = {
      level: 'medium',
      explanation: 'Long-term water allocations may limit new development and raise utility costs.',
    };
  if (HIGH_TAX.has(state))
    riskFactors['Property taxes'] = {
      level: place.tier === 1 ? 'medium' : 'medium-high',
      explanation: `Effective property tax rates in ${state} are among the higher in the country and weigh on net yield.`,
    };
  if (RENT_RULES.has(state))
    riskFactors['Rental regulation'] = {
      level: 'medium',
      explanation: 'Local tenant protections and rent-increase limits constrain how quickly rents can be reset.',
    };
  if (place.tier === 3 && RUST_BELT.has(state))
    riskFactors['Population trend'] = {
      level: 'medium-high',
      explanation: `${place.city} lost population for decades; the neighborhood's revival is real but block-by-block.`,
    };
  if (place.tier === 2)
    riskFactors['New supply'] = {
      level: 'medium',
      explanation: 'A pipeline of new apartments and townhomes may slow rent growth over the next two years.',
    };
  if (place.tier === 1)
    riskFactors.Affordability = {
      level: 'medium-high',
      explanation: 'Few buyers can afford the median home; sales volume is thin and price discovery can be slow.',
    };
  riskFactors['Interest rates'] = {
    level: place.tier === 1 ? 'low-medium' : 'medium',
    explanation:
      place.tier === 1
        ? 'Many buyers pay cash, so mortgage rates move this market less than most.'
        : 'Financing costs drive both buyer demand and investor cash flow; a rate drop would help, a rise would hurt.',
  };
  return riskFactors;
}

/** The overall risk (one step up with any high factor) and the segments best suited, each with its own risk. */
function drawOpportunities(place: PlaceInput, tier: TierProfile, riskFactors: RiskFactors, dice: Dice) {
  const severe = Object.values(riskFactors).filter((f) => f.level === 'high').length;
  const riskLevel = bump(dice.pick(tier.risk), severe > 0 ? 1 : 0);
  const bestSegments = dice.some(SEGMENTS[place.tier], 3).map(({ segment, rationale }) => ({
    segment,
    rationale,
    expectedReturn: fraction(dice.between(...tier.expectedReturn)),
    riskLevel: bump(riskLevel, dice.pick([-1, 0, 0, 1])),
  }));
  return { riskLevel, bestSegments };
}

/** The price forecast for the next six to twelve months, and how sure it is. */
function drawForecast(place: PlaceInput, appreciation: number, dice: Dice) {
  const forecast = fraction(appreciation * dice.between(0.4, 0.9) + dice.normal(0.006));
  const confidence = place.tier === 1 ? 'high' : place.tier === 2 ? dice.pick(['medium', 'high']) : 'medium';
  return { forecast, confidence };
}

/** Everything drawn for one place; what follows only puts it into words. */
interface Drawn {
  place: PlaceInput;
  market: Market;
  people: ReturnType<typeof drawPeople>;
  monthlyData: ReturnType<typeof drawMonthlyPrices>;
  rents: ReturnType<typeof drawRents>;
  riskFactors: RiskFactors;
  opportunities: ReturnType<typeof drawOpportunities>;
  forecast: number;
  confidence: string;
  investmentProfile: string;
  catalysts: string[];
  headwinds: string[];
}

export function generateAnalysis(place: PlaceInput, options: GenerateOptions = DEFAULT_OPTIONS): ZipAnalysis {
  const dice = new Dice(seededRandom(`${options.seed}:${place.zip}`));
  const tier = TIERS[place.tier];
  const market = drawMarket(place, tier, dice);
  const people = drawPeople(place.state, tier, market.price, dice);
  const monthlyData = drawMonthlyPrices(market, options.throughMonth, dice);
  const rents = drawRents(market.price, tier, dice);
  const riskFactors = drawRiskFactors(place, dice);
  const opportunities = drawOpportunities(place, tier, riskFactors, dice);
  const { forecast, confidence } = drawForecast(place, market.appreciation, dice);
  const drawn: Drawn = {
    place,
    market,
    people,
    monthlyData,
    rents,
    riskFactors,
    opportunities,
    forecast,
    confidence,
    investmentProfile: dice.pick(tier.profiles),
    catalysts: dice.some(catalystsFor(people.industries), 3),
    headwinds: dice.some(HEADWINDS, 2),
  };
  return {
    zipCode: place.zip,
    reportMetadata: {
      tier: TIER_LABELS[place.tier],
      location: { city: place.city, state: place.state, neighborhood: place.neighborhood },
      reportDate: lastDayOf(options.throughMonth),
      investmentProfile: drawn.investmentProfile,
      sample: true,
    },
    executiveSummary: executiveSummary(drawn),
    marketFundamentals: {
      medianSalePrice: { value: market.price, yearOverYearChange: market.yearOverYear },
      annualAppreciationRate: { oneYear: market.appreciation },
      pricePerSquareFoot: { value: market.pricePerSquareFoot },
      averageDaysOnMarket: { current: market.daysOnMarket },
      inventoryLevels: {
        monthsOfSupply: market.monthsOfSupply,
        totalActiveListings: market.activeListings,
        newListingsPerMonth: market.newListings,
      },
    },
    demographics: {
      population: { total: market.population },
      householdIncome: { median: people.income },
      education: { bachelors: people.bachelors },
      employment: {
        averageCommute: people.commute,
        unemploymentRate: people.unemployment,
        topIndustries: people.industries,
      },
    },
    priceTrends: {
      twelveMonthTrend: { description: trendDescription(market, monthlyData, options.throughMonth), monthlyData },
      rentalMarket: rents,
    },
    investmentAnalysis: { opportunities: { bestSegments: opportunities.bestSegments }, riskFactors },
    outlook: {
      sixToTwelveMonths: {
        priceMovement: { forecast, confidence },
        inventoryChanges:
          market.monthsOfSupply < 3
            ? 'Inventory should stay tight; new listings are absorbed within weeks.'
            : 'Inventory is likely to edge up as more owners list, giving buyers more room to negotiate.',
        majorCatalysts: drawn.catalysts,
        headwinds: drawn.headwinds,
      },
    },
    actionableRecommendations: recommendations(drawn),
  };
}

const catalystsFor = (industries: string[]) => [
  `Employer expansion in ${industries[0]?.toLowerCase() ?? 'healthcare'}`,
  'Lower mortgage rates bringing sidelined buyers back',
  'Public investment in transit and streetscape',
  'Limited land for new construction',
  'Continued in-migration from higher-cost metros',
  'New retail and dining along the main commercial corridor',
];

const HEADWINDS = [
  'Insurance and property tax increases',
  'Mortgage rates staying higher for longer',
  'New rental supply competing for tenants',
  'Affordability stretching local buyers',
  'Slower job growth if the regional economy cools',
];

// --- words ------------------------------------------------------------------------------

function executiveSummary({ place, market, people, rents, opportunities, confidence }: Drawn) {
  const { price, yearOverYear, appreciation, monthsOfSupply, daysOnMarket } = market;
  const { grossYield } = rents;
  const where = `${place.neighborhood} (${place.city}, ${place.state})`;
  const marketKind =
    monthsOfSupply < 3 ? "a sellers' market" : monthsOfSupply <= 6 ? 'a balanced market' : "a buyers' market";
  const yieldRole =
    place.tier === 1
      ? 'an appreciation play far more than an income play'
      : place.tier === 2
        ? 'income and growth roughly in balance'
        : 'cash flow leads the return';
  return {
    keyTakeaways: [
      `Median sale price of ${usd(price)}, ${yearOverYear >= 0 ? 'up' : 'down'} ${percent(Math.abs(yearOverYear))} year over year.`,
      `Gross rental yield near ${percent(grossYield)}: ${yieldRole}.`,
      `${monthsOfSupply.toFixed(1)} months of supply and ${daysOnMarket} days on market: ${marketKind}.`,
      `${people.industries.slice(0, 2).join(' and ')} anchor local employment; unemployment stands at ${percent(people.unemployment)}.`,
    ],
    investmentThesis:
      place.tier === 1
        ? `${where} is a supply-constrained luxury enclave where land, not buildings, carries the value. Buyers here are wealthy, often paying cash, which steadies prices through rate cycles. Expect modest rental income and appreciation of about ${percent(Math.max(appreciation, 0.02))} a year over a long hold.`
        : place.tier === 2
          ? `${where} sits in one of the faster-growing job markets of its region. In-migration and new employers keep demand ahead of supply, so both rents and prices have room to climb, though new construction will test rent growth.`
          : `${where} offers entry prices that rents comfortably cover, in a neighborhood with visible reinvestment. Returns come mostly from cash flow; appreciation depends on the revival spreading block by block.`,
    bottomLineUpFront:
      place.tier === 1
        ? `Buy for preservation and long-term growth, not yield: a ${percent(grossYield)} gross yield will not carry a leveraged purchase.`
        : place.tier === 2
          ? `A sound growth market at ${usd(price)}: buy well-located, rent-ready homes and hold five years or more.`
          : `Cash flow works at a ${percent(grossYield)} gross yield; underwrite renovation costs and tenant turnover carefully.`,
    riskLevel: opportunities.riskLevel,
    confidenceLevel: confidence,
  };
}

function trendDescription(market: Market, monthlyData: Drawn['monthlyData'], throughMonth: string): string {
  const { price, appreciation } = market;
  const first = monthlyData[0] as { month: string; medianPrice: number };
  const direction = appreciation >= 0 ? 'rose' : 'fell';
  return `Median prices ${direction} about ${percent(Math.abs(appreciation))} over the past year, from ${usd(first.medianPrice)} in ${monthName(first.month)} to ${usd(price)} in ${monthName(throughMonth)}, with the usual spring lift and winter lull.`;
}

function recommendations({ place, market, rents }: Drawn) {
  return {
    immediateActions: [
      `Set a price ceiling from recent sales near ${usd(market.price)} and ${usd(market.pricePerSquareFoot)} per square foot.`,
      place.tier === 3
        ? 'Get contractor bids before offering; renovation overruns are the main threat to returns.'
        : 'Get pre-approved and be ready to move within days on well-priced listings.',
      'Quote insurance before making an offer, not after.',
    ],
    nextSteps: [
      `Tour ${place.neighborhood} on a weekday and a weekend to judge demand and traffic.`,
      `Check rents for comparable units against the ${usd(rents.averageRent.twoBedroom)} two-bedroom average.`,
      'Review zoning and any planned development nearby with the city planning office.',
    ],
  };
}

/** The places of neighborhoods.ts with city and state looked up, for the committed sample. */
export function samplePlaces(
  places: { zip: string; neighborhood: string; tier: TierNumber; priceK: number; appreciation?: number }[],
  lookup: (zip: string) => { city: string; state: string } | undefined,
): PlaceInput[] {
  return places.map((p) => {
    const found = lookup(p.zip);
    if (!found) throw new Error(`ZIP code ${p.zip} is not in the zipcodes package`);
    return {
      zip: p.zip,
      city: found.city,
      state: found.state,
      neighborhood: p.neighborhood,
      tier: p.tier,
      price: p.priceK * 1000,
      ...(p.appreciation === undefined ? {} : { appreciation: p.appreciation }),
    };
  });
}

/** State price levels relative to the national median, for bulk (benchmark) data. */
const STATE_PRICE_LEVEL: Record<string, number> = {
  HI: 2.4,
  CA: 2.2,
  MA: 1.8,
  WA: 1.7,
  DC: 1.7,
  CO: 1.5,
  NY: 1.4,
  NJ: 1.4,
  OR: 1.4,
  UT: 1.4,
  MT: 1.3,
  ID: 1.3,
  NH: 1.3,
  RI: 1.3,
  CT: 1.2,
  MD: 1.2,
  NV: 1.2,
  AZ: 1.2,
  VA: 1.1,
  FL: 1.1,
  DE: 1.0,
  VT: 1.0,
  ME: 1.0,
  MN: 0.95,
  NC: 0.95,
  TX: 0.9,
  GA: 0.9,
  TN: 0.9,
  SC: 0.85,
  WY: 0.95,
  NM: 0.8,
  WI: 0.85,
  IL: 0.8,
  PA: 0.8,
  MI: 0.75,
  MO: 0.75,
  ND: 0.75,
  SD: 0.8,
  NE: 0.8,
  KS: 0.7,
  IA: 0.7,
  IN: 0.7,
  OH: 0.7,
  KY: 0.7,
  AL: 0.7,
  LA: 0.7,
  OK: 0.65,
  AR: 0.6,
  MS: 0.55,
  WV: 0.55,
  AK: 1.0,
};
const TIER_BASE_PRICE: Record<TierNumber, number> = { 1: 1_600_000, 2: 480_000, 3: 190_000 };
const BULK_SUFFIXES = [
  'Heights',
  'Park',
  'Village',
  'Downtown',
  'West End',
  'Northside',
  'Riverside',
  'Old Town',
  'Midtown',
  'Hills',
];

/**
 * `count` generated analyses for real ZIP codes (the benchmark's 5,000): places are taken in ZIP
 * order from `zips`, every one labelled sample; tier and neighborhood names are invented.
 */
export function bulkPlaces(
  count: number,
  zips: { zip: string; city: string; state: string }[],
  seed = DEFAULT_OPTIONS.seed,
): PlaceInput[] {
  const places: PlaceInput[] = [];
  for (const z of zips) {
    if (places.length >= count) break;
    const level = STATE_PRICE_LEVEL[z.state];
    if (level === undefined || !/^[0-9]{5}$/.test(z.zip)) continue;
    const dice = new Dice(seededRandom(`${seed}:place:${z.zip}`));
    const roll = dice.between(0, 1);
    const tier: TierNumber = roll < 0.15 ? 1 : roll < 0.55 ? 2 : 3;
    places.push({
      zip: z.zip,
      city: z.city,
      state: z.state,
      neighborhood: `${z.city} ${dice.pick(BULK_SUFFIXES)}`,
      tier,
      price: round(TIER_BASE_PRICE[tier] * level * dice.between(0.7, 1.4), 1000),
    });
  }
  return places;
}
