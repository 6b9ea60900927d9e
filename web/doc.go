// Package web serves the nqueens board in a browser: one page, embedded in the binary, and
// the JSON API behind it. `nqueens serve` runs it; [New] returns the handler so that
// tests and other programs can mount it anywhere.
//
// # The page
//
// static/index.html, static/i18n.js, static/replay.js, static/app.js and static/style.css,
// embedded with go:embed: plain HTML, CSS and JavaScript drawn on canvases, with no
// framework, no build step and no resource from another origin (the
// Content-Security-Policy header forbids them). Three panels, in tabs:
//
//   - the board: solve n with an algorithm and a seed, step to the next or previous
//     solution in lexicographic order (all of them, or one per symmetry class), apply
//     the 8 symmetries; boards beyond [MaxDrawnN] are summarised (time, conflicts, restarts,
//     verified) with the placement to download as text;
//   - the replay of a search, event by event (replay.js): the seven searches the command
//     runs, the four teaching searches, the Las Vegas hybrid (row and cell variants: the
//     random queens in blue, then the backtracking, the running p, s, e and t, and the U
//     curve with the replay's m marked), Sosic–Gu's local search (step 1 with the O(1)
//     check or the O(j) scan, the shuffle, the swaps of step 3, the restarts, the queens
//     on every diagonal in bars under the board; a board beyond MaxDrawnN is a scatter of
//     queens) and the explicit construction, row by row. Beside the board the search's
//     program (the answer's "code"), the line of the last event lit (the event's line,
//     from the engine, never guessed by the page) and the live variables under it; each
//     step said in a sentence under the board, the attacking queen ringed; for the
//     backtracking searches the call stack, derived from the events. Play, pause,
//     step back and forward (← →, space, Home, End), speed, jumps to the next solution,
//     start or restart, or dead end, the seed shown and settable, the counters as they
//     were at that event, which at the end are the lab's for the same n, m and seed, and
//     a closing sentence at the end; a quiz mode that asks where each queen goes (or
//     which queen a swap takes) before it is shown. A panel says what the chosen search
//     does, what it costs and when to use it. A second search can run beside the first
//     on the same n, stepping together. Each search is sent only the parameters it
//     takes, and an error clears the board;
//   - the lab figures: the Las Vegas cost against the number of random queens (the U
//     curve) and the nodes and checks of the four teaching searches, drawn from the API.
//
// Every string of the page is in English and Simplified Chinese (i18n.js; ?lang=zh, or
// the menu, remembered in the browser), the plots' labels and the programs' comments
// too; the server's errors, in English, are said in Chinese by their kind. The page's
// state lives in its address: the language, the panel, and the panel's settings (for the
// replay: search, n, until, m, check, seed, the compared search, the event shown, the
// player's speed and the quiz mode); a reload, back and forward, or the address pasted
// elsewhere show the same, and "copy link" copies it. Every control has a name a screen
// reader reads, and each board's canvas is labelled with its placement as text.
//
// The page fits a phone's screen: panels and canvases shrink to its width, and each
// canvas is drawn at the size it is shown, through paint in app.js, which keeps its
// drawing function to draw it again when the window's width, the language or the panel
// shown changes.
//
// # The API
//
// Every answer is JSON, errors too: {"error": "..."} with the status code that says
// why (400 bad input, 403 a request addressed to another host, 404 unknown path or no
// such solution, 405 wrong method, 413 body too large, 414 request line too long, 431
// header too large, 503 all workers busy, 504 out of time). Columns are 1-based, in row
// order, as everywhere in nqueens' text and JSON. Every GET endpoint answers HEAD too.
//
//	GET  /api/limits                         the limits below, as the page reads them
//	GET  /api/solve?n=&algorithm=&seed=      one solution (columns up to MaxColumnsN)
//	GET  /api/placement.txt?n=&algorithm=&seed=   the same solution as a text file
//	GET  /api/solutions?n=&index=&unique=    the index-th solution in lexicographic order
//	GET  /api/count?n=                       total and unique counts
//	POST /api/transform                      {"columns":[...],"symmetry":"rotate90"}
//	GET  /api/trace?search=&n=&until=&fix=   the events of a teaching search (fix: from a partial board)
//	GET  /api/trace?search=lasvegas&n=&m=&variant=&seed=   the events of one Las Vegas run
//	GET  /api/trace?search=localsearch&n=&check=&seed=     the events of a local search
//	GET  /api/trace?search=construct&n=      the explicit construction, row by row
//	GET  /api/lab/backtrack?n=               the four teaching searches' table (lab.BacktrackTable)
//	GET  /api/lab/lasvegas?n=&variant=&exact=&objective=&trials=&seed=   the U curve (lab.LasVegasTable)
//
// A trace is the events of a search, from the engine the lab measures (package lab's
// Search.Run, LasVegasRun, LocalSearchRun and ConstructRun), each an array [kind,
// arguments..., line] with "kinds" naming the kinds; rows and columns are 1-based. "code"
// is the search's program (lab.Code: each line's code, its comment in English and Chinese,
// and the kind of event it reports), and the last element of each event is the 1-based
// line of that program that reported it, as the engine's tracer names it: the lines of a
// trace are a path through the program. The classic search's trace has a compare event per
// iteration of Place's loop ([kind, row, column, j, column of row j, attacks, line]: the
// queen tried against the queen of row j) and counts them, place_loop_iterations. The
// row-by-row searches (classic, row) replay from a partial board given as fix= (as the
// command's --fix: "1:2, 5:7", 1-based), named in the answer's "fix": in a row with a
// fixed queen they try its column only, and count the completions; the local search
// (search=localsearch&fix=) keeps them in place and fills the free rows, as
// FindCompletion's local search does. A
// trace ends at the end of the search, at the
// first solution (until=first), or at the event limit (max_events=, at most MaxTraceEvents),
// and its counters are those after its last event ("total" the solutions found, as lab
// backtrack and count say). For the Las Vegas hybrid and the local search, run to their
// end, they are those of the lab's row for the same n, m and seed; of the local search's
// check counters, placed_checks and scan_checks count the tests of step 1 in every run,
// restarts included, and initial_placed_checks and initial_scan_checks those of the first
// run's step 1 only: the lab's keys of those names, equal to its row restarts or not. A
// replay without seed= draws one and names it: the same seed replays the same search; a
// parameter a search does not take (seed= for the construction) is refused, and the
// page sends each search only its own.
//
// The lab endpoints answer the tables of package lab, in the JSON of "nqueens lab
// backtrack N --json" and "nqueens lab lasvegas N --json": the same keys, the same
// optimum (by objective=explored, the default, or checks; time too for a sampled table).
// Every parameter the API shares with a command is spelled as the command spells it
// (docs/vocabulary.md), defaults as it does, from the library (lab.DefaultVariant,
// lab.DefaultObjective, lab.DefaultTrials, nqueens.Auto; a seed not given is drawn and
// answered), and is read by the library's parser, whose error the command gives too.
//
// Every placement the API returns has passed [nqueens.Verify] first. The same n,
// algorithm and seed always give the same placement, which is how the text download
// holds no state on the server.
//
// # Limits
//
// [Options] caps n per endpoint, the events of a trace, the trials of a sweep and the
// size of a request body; every computation runs under a context with a timeout, and at
// most MaxConcurrent of them at once (a request waits QueueWait for a slot, then gets
// 503). The slot is free again once the answer is computed, before its first byte is
// sent, and the sending has deadlines of its own (WriteTimeout for each 64 KiB, and 32
// KiB/s on average): a client that reads slowly, or not at all, holds no computation and
// is cut off in the end. A placement to download is held until it is sent, so at most
// MaxDownloads of them are computed or sent at once. The handler reads no file and writes
// none: the page comes from the binary and no parameter names a path.
//
// # Host names
//
// Unless [Options] Public is set, the handler answers only requests addressed to
// localhost or a loopback address (on the port of Options.Addr, when given), and a POST
// only from the server's own page: a site whose name resolves to 127.0.0.1 cannot use a
// visitor's browser to reach the server (DNS rebinding). `nqueens serve --public` sets it.
package web
