package estimate

// Median exposes median to the external tests.
var Median = median
