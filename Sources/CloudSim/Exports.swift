// A record's fields are a `SortedMap` (issue 19): whoever reads or builds records names that
// type, so importing the cloud brings it along.
@_exported import SortedMaps
