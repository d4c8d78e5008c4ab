-- OFC Analytics DuckDB schema, version 9. Every table and column is documented in docs/schema.md.
-- Keys: a hand is identified by (source, hand_id); hand_key is its surrogate.
-- A player in a hand is (hand_key, seat); seat is the 0-based index in the log's seat order
-- (the log's own seat number is hand_players.log_seat).
-- The big tables carry no PRIMARY KEY / UNIQUE index (they slow bulk loading and updates in
-- DuckDB); the importer enforces (source, hand_id) uniqueness and assigns hand_key itself.

CREATE TABLE IF NOT EXISTS meta (
    key   VARCHAR PRIMARY KEY,
    value VARCHAR
);

-- The import ledger: one row per file import (in the same transaction as the file's hands).
CREATE TABLE IF NOT EXISTS imports (
    import_id      INTEGER PRIMARY KEY,
    path           VARCHAR NOT NULL,   -- as given (or the uploaded file's name)
    sha256         VARCHAR NOT NULL,
    size_bytes     BIGINT NOT NULL,
    format         VARCHAR,            -- NULL when no format recognised the file
    parser_version VARCHAR,
    imported_at    TIMESTAMPTZ NOT NULL,
    hands          INTEGER NOT NULL,   -- hands read: stored + duplicate + merged + partial
                                       -- + rejected
    stored         INTEGER NOT NULL,   -- new hands stored
    duplicate      INTEGER NOT NULL,   -- already stored, nothing new
    partial        INTEGER NOT NULL,   -- not stored, no result: a hand still being written or
                                       -- abandoned (details in `rejected`, partial = true)
    rejected       INTEGER NOT NULL,   -- bad hands (details in `rejected`)
    merged         INTEGER             -- already stored, completed or upgraded by this log
                                       -- (stored before 7: derived by the upgrade)
);

CREATE TABLE IF NOT EXISTS hands (
    hand_key      BIGINT NOT NULL,
    source        VARCHAR NOT NULL,
    hand_id       VARCHAR NOT NULL,
    session_id    VARCHAR,
    match_id      VARCHAR,
    played_at     TIMESTAMPTZ,
    utc_offset    SMALLINT,            -- minutes east of UTC the log wrote played_at with
                                       -- (-300 for -05:00); NULL if unknown (stored before 6)
    variant       VARCHAR NOT NULL,    -- preset name
    ruleset       VARCHAR NOT NULL,    -- resolved settings as JSON (Ruleset.settings()), plus
                                       -- "overrides": the log's own rules object, if any
    ruleset_label VARCHAR NOT NULL,    -- Ruleset.label, e.g. 'pineapple (scoring 2-4)'
    scoring       VARCHAR NOT NULL,    -- '1-6' | '2-4' | 'majority' | 'race'
    button        VARCHAR,
    hero          VARCHAR,
    stake         DOUBLE,              -- money per point
    currency      VARCHAR,
    player_count  TINYINT NOT NULL,
    first_to_act  TINYINT NOT NULL,    -- seat left of the button
    points_differ BOOLEAN NOT NULL,    -- the room's reported points differ from ours
    import_id     INTEGER NOT NULL,    -- the import whose copy of the hand is stored (the
                                       -- first, or a later more informative one)
    raw           VARCHAR,             -- the hand's text as read
    line          INTEGER,             -- 1-based line of the hand in that import's file
    variant_assumed BOOLEAN,           -- the log did not name the variant, its reader assumed
                                       -- it (NULL: stored before 7)
    stake_inferred BOOLEAN             -- stake and currency taken from the other hands of its
                                       -- table (the hand moved no money): ingest/inferred_stakes.py
);

-- Per player per hand: flags, the recomputed outcome, the room's reported result.
CREATE TABLE IF NOT EXISTS hand_players (
    hand_key         BIGINT NOT NULL,
    seat             TINYINT NOT NULL,
    log_seat         SMALLINT,         -- the seat number the log gives (live, CSV: listing
                                       -- order from 0); NULL if unknown (stored before 6)
    player           VARCHAR NOT NULL,
    position         TINYINT NOT NULL, -- acting order: 0 = left of the button
    fantasyland      BOOLEAN NOT NULL, -- played this hand in Fantasyland
    fl_cards         TINYINT,          -- cards dealt in FL this hand, when known
    surrendered      BOOLEAN NOT NULL,
    fouled           BOOLEAN NOT NULL,
    foul_top_middle  BOOLEAN NOT NULL, -- the top beat the middle
    foul_middle_bottom BOOLEAN NOT NULL, -- the middle beat the bottom
    royalties        INTEGER NOT NULL, -- total over rows (0 if fouled)
    fantasyland_next TINYINT NOT NULL, -- FL cards earned for the next hand, 0 if none
    raw_points       DOUBLE NOT NULL,  -- before caps and table stakes (uncapped)
    points           DOUBLE NOT NULL,  -- the player's net for the hand: what changed hands
                                       -- (race: banked)
    reported_points  DOUBLE,           -- the room's settled result
    points_differ    BOOLEAN NOT NULL,
    stack            DOUBLE,           -- points brought to the hand (table stakes), NULL if
                                       -- the log does not say
    reported_raw_points DOUBLE,        -- the room's result before table stakes
    reported_fouled  BOOLEAN,          -- the room's foul
    reported_royalties INTEGER,        -- the room's royalty total
    reported_fl_next TINYINT,          -- the room's Fantasyland cards for the next hand (0: none)
    -- Copies of the hand's own columns (hands.*), so that the dashboard filters and groups one
    -- player's hands from this table alone; written together with the hand, never apart.
    played_at        TIMESTAMPTZ,
    utc_offset       SMALLINT,
    session_id       VARCHAR,
    match_id         VARCHAR,
    variant          VARCHAR,
    ruleset_label    VARCHAR,
    scoring          VARCHAR,
    player_count     TINYINT,
    stake            DOUBLE,
    currency         VARCHAR,
    -- Each row's hand name, as hand_rows.hand_name (NULL if surrendered).
    top_hand         VARCHAR,
    middle_hand      VARCHAR,
    bottom_hand      VARCHAR,
    -- The row's money (ingest/money.py): points x stake, NULL without a stake; race scoring
    -- (OFC Double): stake x final cube, + for the match's winner, - for the loser, on the hand
    -- that ends the match, NULL on its other hands.
    money            DOUBLE,
    -- Why `ofc review` finds no decision of the player here (ofc_core/play/reviewable.py):
    -- 0 nothing stops it, else the reason's place in REASONS + 1; written by the table builder
    -- with the row (ingest/review_reasons.py). NULL only in tables written before version 9.
    review_reason    TINYINT
);

-- Per player and row: the cards, their strength, name and royalty.
CREATE TABLE IF NOT EXISTS hand_rows (
    hand_key  BIGINT NOT NULL,
    seat      TINYINT NOT NULL,
    row_name  VARCHAR NOT NULL,        -- 'top' | 'middle' | 'bottom'
    cards     VARCHAR NOT NULL,        -- 'Qh Qd 2c'
    strength  INTEGER,                 -- ofc_core.evaluate scale; NULL if surrendered
    category  VARCHAR,                 -- 'pair', 'flush', ...
    hand_name VARCHAR,                 -- 'Pair of Queens', 'Pair of Twos (joker)'
    royalty   INTEGER NOT NULL,        -- 0 if fouled
    jokers    VARCHAR                  -- what the row's jokers stood for: 'X1=2d'; NULL if none
);

-- Street by street: what was dealt, placed per row, discarded. NULL dealt/discard = hidden.
CREATE TABLE IF NOT EXISTS placements (
    hand_key BIGINT NOT NULL,
    seat     TINYINT NOT NULL,
    street   TINYINT NOT NULL,           -- 1-based
    dealt    VARCHAR,
    top      VARCHAR NOT NULL,
    middle   VARCHAR NOT NULL,
    bottom   VARCHAR NOT NULL,
    discard  VARCHAR
);

-- Per ordered pair (player vs opponent), from the player's side.
CREATE TABLE IF NOT EXISTS pairs (
    hand_key     BIGINT NOT NULL,
    seat         TINYINT NOT NULL,
    opp_seat     TINYINT NOT NULL,
    player       VARCHAR NOT NULL,
    opponent     VARCHAR NOT NULL,
    top_result   TINYINT NOT NULL,       -- +1 won, 0 tie, -1 lost
    middle_result TINYINT NOT NULL,
    bottom_result TINYINT NOT NULL,
    rows_won     TINYINT NOT NULL,
    rows_lost    TINYINT NOT NULL,
    row_points   INTEGER NOT NULL,
    bonus        INTEGER NOT NULL,       -- majority + scoop bonus
    scoop        BOOLEAN NOT NULL,       -- player won all three rows (or the opponent fouled)
    royalties    INTEGER NOT NULL,       -- net royalty exchange (race: own royalties banked)
    surrender    DOUBLE NOT NULL,
    total        DOUBLE NOT NULL,        -- before caps
    points       DOUBLE NOT NULL         -- after caps
);

-- Match events (OFC Double doubling cube, match results).
CREATE TABLE IF NOT EXISTS events (
    hand_key BIGINT NOT NULL,
    idx      SMALLINT NOT NULL,
    type     VARCHAR NOT NULL,           -- 'double', 'match_end', ...
    by_player VARCHAR,
    accepted BOOLEAN,
    data     VARCHAR                     -- JSON of the other fields
);

-- Every copy of a stored hand the imports read, but a hand's only copy (ingest/copies.py):
-- removing an import falls back to the copies the other imports hold (ingest/removal.py).
CREATE TABLE IF NOT EXISTS hand_copies (
    hand_key       BIGINT NOT NULL,    -- the stored hand (hands.hand_key)
    import_id      INTEGER NOT NULL,   -- the import that read this copy
    line           INTEGER,            -- its line in that import's file
    raw            VARCHAR,            -- the text it was read from
    copy           VARCHAR NOT NULL    -- the copy as read: ofc-hh/1 JSON plus "kept"
);

-- Hands that could not be stored, with where and why (partial = a truncated last hand).
CREATE TABLE IF NOT EXISTS rejected (
    import_id INTEGER NOT NULL,
    path      VARCHAR NOT NULL,
    line      INTEGER NOT NULL,          -- 1-based; 0 for a file that could not be read
    hand_id   VARCHAR,
    message   VARCHAR NOT NULL,
    partial   BOOLEAN NOT NULL,
    raw       VARCHAR
);

-- Decision review (`ofc review`): one row per reviewed decision of a player. Keyed by the hand's
-- (source, hand_id), so rescoring and merging hands keep it; written only by
-- ingest.decisions.write_decisions. Placements in compact board notation: the cards placed this
-- street as top-middle-bottom, discards after a slash ('Qh--Kd/2c').
CREATE TABLE IF NOT EXISTS decisions (
    source     VARCHAR NOT NULL,
    hand_id    VARCHAR NOT NULL,
    player     VARCHAR NOT NULL,
    street     TINYINT NOT NULL,         -- 1-based; a Fantasyland set is street 1
    kind       VARCHAR NOT NULL,         -- 'first five' | 'street' | 'fantasyland set'
    board      VARCHAR NOT NULL,         -- the player's board before it ('Ks-2c5d-', '--' at first)
    dealt      VARCHAR NOT NULL,         -- 'Qh Kd 2c'
    chosen     VARCHAR NOT NULL,
    chosen_ev  DOUBLE NOT NULL,          -- points (Fantasyland value included)
    chosen_se  DOUBLE NOT NULL,          -- standard error of chosen_ev
    best       VARCHAR NOT NULL,
    best_ev    DOUBLE NOT NULL,
    best_se    DOUBLE NOT NULL,
    ev_lost    DOUBLE NOT NULL,          -- best_ev - chosen_ev, >= 0
    fl_chase   BOOLEAN NOT NULL,         -- the best placement aimed at QQ+ on top
    candidates SMALLINT NOT NULL,        -- legal placements valued
    rollouts   INTEGER NOT NULL,         -- rollouts spent (placements x rollouts each)
    policy     VARCHAR NOT NULL,         -- rollout policy, e.g. 'best-of-24'
    version    VARCHAR NOT NULL,         -- ofc_core.play.review.REVIEW_VERSION
    reviewed_at TIMESTAMPTZ NOT NULL,
    -- Since schema 10 (review version 6). Rows of older review versions get these from their
    -- own columns on upgrade (ingest.decisions.fill_older) and are reviewed again by `ofc review`.
    ev_lost_se DOUBLE NOT NULL,          -- standard error of ev_lost from the paired per-deal
                                         -- differences on common deals; 0 for exact positions
    class      VARCHAR NOT NULL,         -- 'best' | 'tie' | 'inaccuracy' | 'mistake' | 'blunder'
    accuracy   DOUBLE NOT NULL,          -- 0-100 (ofc_core.play.accuracy)
    chosen_foul DOUBLE NOT NULL,         -- chance to foul, 0-1
    chosen_foul_se DOUBLE NOT NULL,
    best_foul  DOUBLE NOT NULL,
    best_foul_se DOUBLE NOT NULL,
    chosen_fl  DOUBLE NOT NULL,          -- chance to reach (or stay in) Fantasyland, 0-1
    chosen_fl_se DOUBLE NOT NULL,
    best_fl    DOUBLE NOT NULL,
    best_fl_se DOUBLE NOT NULL,
    chosen_royalties DOUBLE NOT NULL,    -- expected royalties, points
    chosen_royalties_se DOUBLE NOT NULL,
    best_royalties DOUBLE NOT NULL,
    best_royalties_se DOUBLE NOT NULL,
    chosen_rows DOUBLE NOT NULL,         -- expected points from rows and scoops
    chosen_rows_se DOUBLE NOT NULL,
    best_rows  DOUBLE NOT NULL,
    best_rows_se DOUBLE NOT NULL,
    reason     VARCHAR NOT NULL,         -- 'fouls 31% against 9%'; '' when the played is the best
    tie_with   VARCHAR NOT NULL          -- '' or 'a tie: A or B'
);

-- The top three placements of each reviewed decision (rank 1: the best shown), written and
-- deleted with their decision (ingest.decisions). Placements as in decisions.best.
CREATE TABLE IF NOT EXISTS decision_alternatives (
    source     VARCHAR NOT NULL,
    hand_id    VARCHAR NOT NULL,
    player     VARCHAR NOT NULL,
    street     TINYINT NOT NULL,
    rank       TINYINT NOT NULL,         -- 1, 2, 3
    placement  VARCHAR NOT NULL,
    ev         DOUBLE NOT NULL,
    ev_se      DOUBLE NOT NULL,
    diff       DOUBLE NOT NULL,          -- the best's EV minus this one's (0 for rank 1)
    diff_se    DOUBLE NOT NULL,          -- its paired standard error
    foul       DOUBLE NOT NULL,
    foul_se    DOUBLE NOT NULL,
    fl         DOUBLE NOT NULL,
    fl_se      DOUBLE NOT NULL,
    royalties  DOUBLE NOT NULL,
    royalties_se DOUBLE NOT NULL,
    rows       DOUBLE NOT NULL,
    rows_se    DOUBLE NOT NULL
);

-- "Me": the names the user plays under (aliases across rooms). A name with a source is the user
-- only in that source's hands (hands.source); NULL: in every source. User data, not derived from
-- the hands (no hand_key): rescoring, merging, removing imports and upgrading keep it. Written
-- only by ingest.identity; (name, source) is unique (checked there: source may be NULL).
CREATE TABLE IF NOT EXISTS my_names (
    name     VARCHAR NOT NULL,
    source   VARCHAR,
    added_at TIMESTAMPTZ NOT NULL
);

-- The Train page's answers (user data): one row per answer to a puzzle, a reviewed decision
-- keyed as in `decisions`; the puzzle's spaced repetition reads its history.
CREATE TABLE IF NOT EXISTS puzzle_answers (
    source      VARCHAR NOT NULL,
    hand_id     VARCHAR NOT NULL,
    player      VARCHAR NOT NULL,
    street      TINYINT NOT NULL,
    answered_at TIMESTAMPTZ NOT NULL,
    answer      VARCHAR NOT NULL,        -- the placement, in the notation of decisions.chosen
    ev_lost     DOUBLE NOT NULL,         -- the answer's EV below the best, on the common deals
    noise       DOUBLE NOT NULL,         -- two standard errors of that difference
    solved      BOOLEAN NOT NULL,        -- within the noise of the best
    due_at      TIMESTAMPTZ NOT NULL     -- when the puzzle comes back
);

-- Aliases: the name the user gives a player id (ofc alias, the Opponents page), shown on every
-- page where the player is. User data like my_names (no hand_key): kept through rescoring,
-- merging, removing imports and upgrading. Written only by ingest.aliases.
CREATE TABLE IF NOT EXISTS player_aliases (
    player   VARCHAR PRIMARY KEY,
    alias    VARCHAR NOT NULL,
    added_at TIMESTAMPTZ NOT NULL
);

-- Notes and tags the user writes (ingest.notes, the only writer). A hand's are keyed by its
-- (source, hand_id) like `decisions`, so rescoring, merging, upgrading and removing other
-- imports keep them; removing the hand's own import keeps them too (they show again when the
-- hand is imported again). An opponent's are keyed by the player's name.
CREATE TABLE IF NOT EXISTS hand_notes (
    source     VARCHAR NOT NULL,
    hand_id    VARCHAR NOT NULL,
    note       VARCHAR NOT NULL,         -- trimmed, at most 5,000 characters, never empty
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (source, hand_id)
);

CREATE TABLE IF NOT EXISTS hand_tags (
    source    VARCHAR NOT NULL,
    hand_id   VARCHAR NOT NULL,
    position  TINYINT NOT NULL,          -- order the tags were given in
    tag       VARCHAR NOT NULL,          -- as typed (trimmed, spaces collapsed, NFC)
    tag_key   VARCHAR NOT NULL,          -- case-folded: what the tag filter matches
    tagged_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (source, hand_id, tag_key)
);

CREATE TABLE IF NOT EXISTS player_notes (
    player     VARCHAR PRIMARY KEY,
    note       VARCHAR NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS player_tags (
    player    VARCHAR NOT NULL,
    position  TINYINT NOT NULL,
    tag       VARCHAR NOT NULL,
    tag_key   VARCHAR NOT NULL,
    tagged_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (player, tag_key)
);

-- Watched folders (`ofc import --watch DIR`, the Import page; ingest/watch.py): the user's own
-- list, never touched by rescoring, merging or removing imports, kept through upgrades. Keyed by
-- the folder's absolute path. A watcher writes only when a check finds something new (a new or
-- grown file, a file or folder gone) in one of its folders: `last_check` is the last such check.
CREATE TABLE IF NOT EXISTS watched_folders (
    path       VARCHAR PRIMARY KEY,      -- absolute path of the folder
    added_at   TIMESTAMPTZ NOT NULL,
    last_check TIMESTAMPTZ,              -- the last check written (NULL: none yet)
    problem    VARCHAR                   -- why the folder could not be read then (NULL: fine)
);

-- What the watcher last imported of each file of a watched folder (one row per file, by path):
-- a file whose size and modification time are still these is not read again.
CREATE TABLE IF NOT EXISTS watched_files (
    path        VARCHAR NOT NULL,        -- absolute path of the file
    folder      VARCHAR NOT NULL,        -- the watched folder it was found in
    size_bytes  BIGINT NOT NULL,         -- as seen before its last import
    mtime_ns    BIGINT NOT NULL,
    import_id   INTEGER NOT NULL,        -- its last import (imports.import_id)
    stored      INTEGER NOT NULL,        -- hands stored from it, over all its imports
    errors      INTEGER NOT NULL,        -- bad hands of its last import (1: the file unreadable)
    imported_at TIMESTAMPTZ NOT NULL
);

-- Tournaments (docs/schema.md "Tournaments"). What a hand's log says about its tournament, by
-- the hand's identity (like the notes): written with the hand by the importer (ingest.tournaments),
-- kept through rescoring, merging and upgrades; a removed hand's row stays and shows again when
-- the hand is imported again (the derived tables read only stored hands).
CREATE TABLE IF NOT EXISTS hand_tournaments (
    source          VARCHAR NOT NULL,
    hand_id         VARCHAR NOT NULL,
    tournament_id   VARCHAR NOT NULL,
    name            VARCHAR,
    kind            VARCHAR NOT NULL,     -- 'chips' or 'knockout'
    level           INTEGER,
    chips_per_point DOUBLE,
    table_id        VARCHAR,
    round           INTEGER,
    PRIMARY KEY (source, hand_id)
);

-- Tournament summaries (ofc-tournament/1), one row per (source, tournament_id): the latest
-- import of it; removing that import deletes it.
CREATE TABLE IF NOT EXISTS tournament_summaries (
    source         VARCHAR NOT NULL,
    tournament_id  VARCHAR NOT NULL,
    name           VARCHAR,
    kind           VARCHAR NOT NULL,
    started_at     TIMESTAMPTZ,
    buy_in         DOUBLE,
    fee            DOUBLE,
    currency       VARCHAR,
    starting_stack DOUBLE,
    prize_pool     DOUBLE,
    entrants       INTEGER,
    import_id      INTEGER NOT NULL,
    line           INTEGER NOT NULL,
    raw            VARCHAR NOT NULL,     -- the record's JSON line (results and series are read from it)
    PRIMARY KEY (source, tournament_id)
);

-- Derived (ingest.tournaments.refresh, run by every writer of hands, in its transaction): one
-- row per tournament hand per player, in chips.
CREATE TABLE IF NOT EXISTS tournament_chips (
    source VARCHAR, tournament_id VARCHAR, kind VARCHAR, hand_key BIGINT, hand_id VARCHAR,
    played_at TIMESTAMPTZ, table_id VARCHAR, level INTEGER, chips_per_point DOUBLE,
    round INTEGER, match_id VARCHAR, player VARCHAR, seat TINYINT, hand_no INTEGER,
    points DOUBLE, stack_before DOUBLE, chips DOUBLE, stack_after DOUBLE
);

-- Derived: the partitions of the aggregates (session_id, UTC hour) holding tournament hands, and
-- whether they hold cash hands too (the dashboard's Game filter reads the rows then).
CREATE TABLE IF NOT EXISTS tournament_partitions (
    session_id VARCHAR, hour BIGINT, mixed BOOLEAN
);

-- Derived: one row per tournament per player (places and prizes from the summary when there
-- is one, else places from the hands).
CREATE TABLE IF NOT EXISTS tournament_players (
    source VARCHAR, tournament_id VARCHAR, name VARCHAR, kind VARCHAR, started TIMESTAMPTZ,
    player VARCHAR, entrants INTEGER, hands INTEGER, place INTEGER, place_from VARCHAR,
    prize DOUBLE, buy_in DOUBLE, fee DOUBLE, currency VARCHAR, profit DOUBLE,
    final_stack DOUBLE
);

-- Derived: a knockout's series, round by round (from the summary, else from the hands'
-- match ends).
CREATE TABLE IF NOT EXISTS tournament_series (
    source VARCHAR, tournament_id VARCHAR, round INTEGER, player_a VARCHAR, player_b VARCHAR,
    wins_a INTEGER, wins_b INTEGER, winner VARCHAR, forfeit BOOLEAN, matches VARCHAR,
    series_from VARCHAR
);

-- The knockout brackets run from the dashboard and `ofc knockout` (ingest.knockout, the only
-- writer): user data, an event log replayed into the bracket (ofc_core.knockout). Every change
-- is a row with who and when; an undo marks the last live row undone.
CREATE TABLE IF NOT EXISTS knockout_events (
    bracket  VARCHAR NOT NULL,
    seq      INTEGER NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL,
    who      VARCHAR NOT NULL,
    action   VARCHAR NOT NULL,             -- 'create', 'series', 'undo'
    data     VARCHAR NOT NULL,             -- JSON
    PRIMARY KEY (bracket, seq)
);
