/** One item of a list drawn on the map: the list's own key, where it is, what it says, its colour. */
export interface MapMarker {
  /** The list item's key (a ZIP code, a request id): what a click on the point opens. */
  key: string;
  zipCode: string;
  /** What the point's title and aria-label say. */
  label: string;
  colour: string;
}

/** One row of the map's legend. */
export interface LegendEntry {
  colour: string;
  label: string;
}

/** What a page hands the map: the same items its list shows, coloured, and how to read them. */
export interface UsMapProps {
  /** The svg's title, read first by a screen reader. */
  title: string;
  markers: readonly MapMarker[];
  legendTitle: string;
  legend: readonly LegendEntry[];
  /** How the points are placed, said under the legend ("each report at its ZIP code's centre"). */
  placement: string;
  /** Opens a point's item, as the list's own link or button does. */
  onOpen?: (key: string) => void;
}
