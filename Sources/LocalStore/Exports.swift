// A model's values and relationships are `SortedMap`s: whoever reads or builds
// models names that type, so importing the store brings it along.
@_exported import SortedMaps
