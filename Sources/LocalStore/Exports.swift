// A model's values and relationships are `SortedMap`s (issue 19): whoever reads or builds
// models names that type, so importing the store brings it along.
@_exported import SortedMaps
