package conformance

// SizeCase is a board size as written and what every reader of sizes (nqueens.ParseSize,
// the command's arguments and flags, the web board's n) must make of it: N, or an error
// of the kind Err.
type SizeCase struct {
	In  string
	N   int    // the size, when Err is ""
	Err string // "syntax": not a whole number of the grammar (*ParseError); "small": below 1, "large": above 2^31−1 (*SizeError)
}

// SizeCases is the one table of board sizes that the command and the web board are
// tested with: the grammar of nqueens.ParseSize.
var SizeCases = []SizeCase{
	{"12", 12, ""}, {"1", 1, ""}, {"007", 7, ""}, {"+12", 12, ""},
	{"1_000_000", 1_000_000, ""}, {"1e6", 1_000_000, ""}, {"1E9", 1_000_000_000, ""},
	{"1e+6", 1_000_000, ""}, {"2.5e3", 2500, ""}, {"1.20e1", 12, ""}, {"0.5e1", 5, ""},
	{"12.", 12, ""}, {"12.000", 12, ""}, {"1e0", 1, ""}, {"2147483647", 2147483647, ""},
	{"2.147483647e9", 2147483647, ""}, {"1_0e0_1", 100, ""},
	{"0", 0, "small"}, {"-1", 0, "small"}, {"-5", 0, "small"}, {"0e5", 0, "small"}, {"-1e99", 0, "small"},
	{"2147483648", 0, "large"}, {"3e9", 0, "large"}, {"1e100", 0, "large"},
	{"9999999999999999999999", 0, "large"}, {"1e99999999999", 0, "large"},
	{"", 0, "syntax"}, {" 7", 0, "syntax"}, {"7 ", 0, "syntax"}, {"abc", 0, "syntax"},
	{"0x10", 0, "syntax"}, {"1e", 0, "syntax"}, {"e5", 0, "syntax"}, {"1..2", 0, "syntax"},
	{".5e1", 0, "syntax"}, {"1.5", 0, "syntax"}, {"1e-3", 0, "syntax"}, {"2.5", 0, "syntax"},
	{"1__000", 0, "syntax"}, {"_1", 0, "syntax"}, {"1_", 0, "syntax"}, {"1_e6", 0, "syntax"},
	{"+-1", 0, "syntax"}, {"-+1", 0, "syntax"}, {"++1", 0, "syntax"}, {"1e6.0", 0, "syntax"},
	{"12abc", 0, "syntax"}, {"١٢", 0, "syntax"}, {"inf", 0, "syntax"}, {"NaN", 0, "syntax"},
}
