// A record's fields are a `SortedMap`: whoever reads or builds records names that type, so
// importing the cloud brings it along.
@_exported import SortedMaps
