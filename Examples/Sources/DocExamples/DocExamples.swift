// The examples of Gateway's doc comments, each inside a function whose parameters stand for
// the values the example takes as given (a base URL, a folder, a provider). Nothing here runs;
// it is compiled by `.ci/run`, and `DocExamplesTests` in the main package checks that every
// example of the doc comments stands here, line for line.
