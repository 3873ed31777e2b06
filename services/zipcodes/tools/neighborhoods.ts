/**
 * The places of the sample data set: real ZIP codes (city and state come from the `zipcodes`
 * package at generation time) with a real neighborhood of each, the tier we would put it in, and
 * a rough median sale price in thousands of dollars that anchors the generated figures. Where a
 * market is known to have moved against the trend of its tier, `appreciation` pins the one-year
 * rate. Everything else is generated (generator.ts); none of it is research.
 */
interface SamplePlace {
  zip: string;
  neighborhood: string;
  tier: 1 | 2 | 3;
  priceK: number;
  appreciation?: number;
}

export const SAMPLE_PLACES: SamplePlace[] = [
  // Tier 1: Ultra-Premium
  { zip: '90210', neighborhood: 'Beverly Hills Flats', tier: 1, priceK: 3650 },
  { zip: '94027', neighborhood: 'West Atherton', tier: 1, priceK: 7400 },
  { zip: '10007', neighborhood: 'Tribeca', tier: 1, priceK: 3100 },
  { zip: '10021', neighborhood: 'Upper East Side (Lenox Hill)', tier: 1, priceK: 1450 },
  { zip: '02116', neighborhood: 'Back Bay', tier: 1, priceK: 1350 },
  { zip: '33480', neighborhood: 'Palm Beach Island', tier: 1, priceK: 4200 },
  { zip: '81611', neighborhood: 'Red Mountain', tier: 1, priceK: 8900 },
  { zip: '98039', neighborhood: 'Medina', tier: 1, priceK: 4300 },
  { zip: '06830', neighborhood: 'Belle Haven', tier: 1, priceK: 2350 },
  { zip: '20007', neighborhood: 'Georgetown', tier: 1, priceK: 1550 },
  { zip: '92657', neighborhood: 'Pelican Hill', tier: 1, priceK: 4800 },
  { zip: '60611', neighborhood: 'Streeterville', tier: 1, priceK: 690 },
  { zip: '94123', neighborhood: 'Marina District', tier: 1, priceK: 1900, appreciation: 0.012 },
  { zip: '33109', neighborhood: 'Fisher Island', tier: 1, priceK: 5600 },
  { zip: '83014', neighborhood: 'Teton Village', tier: 1, priceK: 4100 },
  { zip: '07078', neighborhood: 'Short Hills', tier: 1, priceK: 1850 },
  { zip: '75205', neighborhood: 'Highland Park', tier: 1, priceK: 2200 },
  { zip: '30327', neighborhood: 'Buckhead (Tuxedo Park)', tier: 1, priceK: 1600 },
  { zip: '77024', neighborhood: 'Memorial Villages', tier: 1, priceK: 1250 },
  { zip: '19035', neighborhood: 'Gladwyne', tier: 1, priceK: 1700 },
  { zip: '85253', neighborhood: 'Paradise Valley', tier: 1, priceK: 2900 },
  // Tier 2: High-Growth
  { zip: '78704', neighborhood: 'South Congress (SoCo)', tier: 2, priceK: 760, appreciation: -0.034 },
  { zip: '37206', neighborhood: 'East Nashville', tier: 2, priceK: 560 },
  { zip: '28203', neighborhood: 'South End', tier: 2, priceK: 590 },
  { zip: '80205', neighborhood: 'RiNo (River North)', tier: 2, priceK: 610, appreciation: -0.008 },
  { zip: '85004', neighborhood: 'Roosevelt Row', tier: 2, priceK: 470, appreciation: 0.011 },
  { zip: '33602', neighborhood: 'Channel District', tier: 2, priceK: 520, appreciation: -0.012 },
  { zip: '32803', neighborhood: 'Audubon Park', tier: 2, priceK: 455 },
  { zip: '84101', neighborhood: 'Granary District', tier: 2, priceK: 430 },
  { zip: '27601', neighborhood: 'Downtown Raleigh (Oakwood)', tier: 2, priceK: 520 },
  { zip: '29403', neighborhood: 'North Central', tier: 2, priceK: 540 },
  { zip: '83702', neighborhood: 'North End', tier: 2, priceK: 610, appreciation: 0.004 },
  { zip: '30318', neighborhood: 'West Midtown', tier: 2, priceK: 480 },
  { zip: '78209', neighborhood: 'Alamo Heights', tier: 2, priceK: 520 },
  { zip: '98103', neighborhood: 'Fremont', tier: 2, priceK: 940 },
  { zip: '97214', neighborhood: 'Buckman', tier: 2, priceK: 560, appreciation: -0.006 },
  { zip: '55408', neighborhood: 'Uptown (Lyn-Lake)', tier: 2, priceK: 390 },
  { zip: '89135', neighborhood: 'Summerlin South', tier: 2, priceK: 720 },
  { zip: '37203', neighborhood: 'The Gulch', tier: 2, priceK: 640 },
  { zip: '75201', neighborhood: 'Arts District', tier: 2, priceK: 450 },
  { zip: '32204', neighborhood: 'Riverside', tier: 2, priceK: 330 },
  { zip: '40204', neighborhood: 'The Highlands', tier: 2, priceK: 360 },
  { zip: '64108', neighborhood: 'Crossroads Arts District', tier: 2, priceK: 310 },
  { zip: '46202', neighborhood: 'Mass Ave (Chatham Arch)', tier: 2, priceK: 380 },
  { zip: '43215', neighborhood: 'Short North', tier: 2, priceK: 420 },
  { zip: '04101', neighborhood: 'Munjoy Hill', tier: 2, priceK: 640 },
  // Tier 3: Emerging
  { zip: '48207', neighborhood: 'Rivertown (Lafayette Park)', tier: 3, priceK: 195 },
  { zip: '44113', neighborhood: 'Ohio City / Tremont', tier: 3, priceK: 245 },
  { zip: '15212', neighborhood: 'Deutschtown (North Side)', tier: 3, priceK: 185 },
  { zip: '63104', neighborhood: 'Soulard / Lafayette Square', tier: 3, priceK: 260 },
  { zip: '38104', neighborhood: 'Cooper-Young (Midtown)', tier: 3, priceK: 215 },
  { zip: '35205', neighborhood: 'Five Points South', tier: 3, priceK: 230 },
  { zip: '14213', neighborhood: 'West Side', tier: 3, priceK: 165 },
  { zip: '21224', neighborhood: 'Highlandtown', tier: 3, priceK: 255 },
  { zip: '53204', neighborhood: "Walker's Point", tier: 3, priceK: 190 },
  { zip: '73106', neighborhood: 'Plaza District', tier: 3, priceK: 175 },
  { zip: '13204', neighborhood: 'Tipperary Hill', tier: 3, priceK: 120 },
  { zip: '45202', neighborhood: 'Over-the-Rhine', tier: 3, priceK: 340 },
  { zip: '70117', neighborhood: 'Bywater', tier: 3, priceK: 285, appreciation: -0.021 },
  { zip: '19134', neighborhood: 'Port Richmond', tier: 3, priceK: 165 },
  { zip: '72205', neighborhood: 'Hillcrest', tier: 3, priceK: 240 },
  { zip: '39202', neighborhood: 'Fondren', tier: 3, priceK: 150 },
  { zip: '87102', neighborhood: 'Barelas', tier: 3, priceK: 235 },
  { zip: '79902', neighborhood: 'Sunset Heights', tier: 3, priceK: 190 },
  { zip: '67203', neighborhood: 'Delano', tier: 3, priceK: 150 },
  { zip: '68104', neighborhood: 'Benson', tier: 3, priceK: 215 },
  { zip: '12210', neighborhood: 'Center Square', tier: 3, priceK: 230 },
  { zip: '25301', neighborhood: 'East End', tier: 3, priceK: 140 },
  { zip: '99201', neighborhood: "Browne's Addition", tier: 3, priceK: 280 },
  { zip: '61604', neighborhood: 'West Bluff', tier: 3, priceK: 125 },
  { zip: '46805', neighborhood: 'North Anthony', tier: 3, priceK: 175 },
  { zip: '50314', neighborhood: 'River Bend', tier: 3, priceK: 140 },
  { zip: '36104', neighborhood: 'Cottage Hill', tier: 3, priceK: 120 },
  { zip: '29203', neighborhood: 'Eau Claire', tier: 3, priceK: 165 },
];
