package main

// A copy in code, in another case: found.
var q = "which zebras were fed after midnight on tuesday?"
