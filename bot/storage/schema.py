"""The tables as the newest migration leaves them (revisions/versions/), for the queries.

Ids from Discord (guilds, channels, messages) are 64-bit: BigInteger. JSON is kept as text, so
both backends store the same bytes and `copy` moves them unchanged. Times are unix seconds.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    text,
)

metadata = MetaData()
# Float(53): double precision on PostgreSQL (a plain Float is 4 bytes there); REAL on SQLite.
Real = Float(53)
LIVE_WHERE = text("status IN ('lobby', 'active')")

guild_settings = Table(
    "guild_settings",
    metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("key", Text, nullable=False),
    Column("value", Text, nullable=False),  # JSON
    PrimaryKeyConstraint("guild_id", "key"),
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("guild_id", BigInteger),  # NULL: no server (a group DM; revision 17)
    Column("channel_id", BigInteger, nullable=False),
    Column("host_id", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("seats", Text, nullable=False),  # JSON list of player ids
    Column("rules", Text, nullable=False),  # JSON
    Column("state", Text),  # JSON; NULL while a lobby
    Column("version", Integer, nullable=False, server_default="0"),  # moves saved so far
    Column("lobby_message_id", BigInteger),
    Column("table_message_id", BigInteger),
    Column("ping_message_id", BigInteger),
    Column("deadline", Real),
    Column("created_at", Real, nullable=False),
    Column("updated_at", Real, nullable=False),
    Column("max_players", Integer, nullable=False, server_default="4"),
    Column("match", Text),  # JSON
    Column("options", Text),  # JSON
    Column("place", Text),  # JSON (bot.domain.place); NULL: a server channel the bot is in
    CheckConstraint(
        "status IN ('lobby', 'active', 'finished', 'cancelled', 'broken')", name="games_status"
    ),
)
Index("games_live", games.c.status, sqlite_where=LIVE_WHERE, postgresql_where=LIVE_WHERE)
Index(
    "games_live_channel",
    games.c.channel_id,
    unique=True,
    sqlite_where=LIVE_WHERE,
    postgresql_where=LIVE_WHERE,
)

moves = Table(
    "moves",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("n", Integer, nullable=False),
    Column("move", Text, nullable=False),  # JSON
    PrimaryKeyConstraint("game_id", "n"),
)

# `board_id`: the board the game counted on (the server's id; outside a server, its channel's:
# Place.board_id); `guild_id` NULL for a game outside a server (revision 18).
history = Table(
    "history",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True, autoincrement=False),
    Column("board_id", BigInteger, nullable=False),
    Column("guild_id", BigInteger),
    Column("channel_id", BigInteger, nullable=False),
    Column("finished_at", Real, nullable=False),
    Column("seats", Text, nullable=False),
    Column("places", Text, nullable=False),
    Column("forfeited", Text, nullable=False),
    Column("record", Text, nullable=False),
)
Index(
    "history_by_board", history.c.board_id, history.c.finished_at.desc(), history.c.game_id.desc()
)

history_players = Table(
    "history_players",
    metadata,
    Column("game_id", Integer, ForeignKey("history.game_id"), nullable=False),
    Column("user_id", Text, nullable=False),
    PrimaryKeyConstraint("user_id", "game_id"),
)

# A board's players: `guild_id` is the board's key (Place.board_id), the server's id, or the
# channel's outside a server (a group DM keeps the board of that group). So in rated_games,
# seasons and season_standings. Discord ids never collide across servers and channels.
players = Table(
    "players",
    metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("name", Text, nullable=False, server_default=""),
    Column("games", Integer, nullable=False, server_default="0"),
    Column("wins", Integer, nullable=False, server_default="0"),
    Column("cards", Integer, nullable=False, server_default="0"),
    Column("steals", Integer, nullable=False, server_default="0"),
    Column("biggest_steal", Integer, nullable=False, server_default="0"),
    Column("mu", Real, nullable=False),
    Column("sigma", Real, nullable=False),
    Column("rating", Real, nullable=False, server_default="0"),  # mu - 3 sigma (revision 8)
    PrimaryKeyConstraint("guild_id", "user_id"),
)
PLAYED = text("games > 0")
# The board's orders (leaderboard.ORDERS), so a page or a rank reads an index range.
for _name, _order in (
    ("rating", (players.c.rating.desc(), players.c.wins.desc())),
    ("wins", (players.c.wins.desc(), players.c.rating.desc())),
    ("cards", (players.c.cards.desc(), players.c.rating.desc())),
):
    Index(
        f"players_by_{_name}", players.c.guild_id, *_order, players.c.user_id, players.c.games,
        sqlite_where=PLAYED, postgresql_where=PLAYED,
    )  # fmt: skip

# One row per counted game per rated player: what the stats card reads (a rating trend, the
# favourite capture) without replaying the history. `n` is the player's games count after the
# game (players.games), so a player's last games are one index range; a board reset deletes
# the guild's rows with its totals.
rated_games = Table(
    "rated_games",
    metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("n", Integer, nullable=False),
    Column("game_id", Integer, ForeignKey("history.game_id"), nullable=False),
    Column("mu0", Real, nullable=False),  # the rating before the game
    Column("sigma0", Real, nullable=False),
    Column("mu", Real, nullable=False),  # and after it
    Column("sigma", Real, nullable=False),
    Column("captures", Text, nullable=False),  # JSON {rank: captures} of the player's seat
    PrimaryKeyConstraint("guild_id", "user_id", "n"),
)

# Guilds whose rated_games are still to be worked out from their history (the databases that
# had finished games before revision 11): the session layer fills them in at start-up.
stats_backfill = Table(
    "stats_backfill",
    metadata,
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),
)

outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("kind", Text, nullable=False),
    Column("payload", Text, nullable=False),  # JSON object
    Column("created_at", Real, nullable=False),
    sqlite_autoincrement=True,  # an id is never reused (see the outbox)
)

# Servers the bot was removed from: their data is deleted at due_at (bot/storage/forget.py).
guild_purges = Table(
    "guild_purges",
    metadata,
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),
    Column("due_at", Real, nullable=False),
    Column("requested_at", Real, nullable=False),
)

# The interaction tokens that can still edit players' open hand messages, so a restart keeps
# them following their games. A token is a secret for its 15 minutes: dropped once expired.
hand_tokens = Table(
    "hand_tokens",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("user_id", Text, nullable=False),
    Column("token", Text, nullable=False),
    Column("message_id", BigInteger),  # NULL: the interaction's original response
    Column("origin", BigInteger, nullable=False),  # the interaction that made the message
    Column("lang", Text, nullable=False),  # of the player who opened it
    Column("expires_at", Real, nullable=False),
    PrimaryKeyConstraint("game_id", "user_id"),
)
Index("hand_tokens_by_expiry", hand_tokens.c.expires_at)

# The token that edits the table of a game the bot token cannot reach (a group DM: revision
# 17), so a restart finds it: under hand tokens' rules (a secret; dropped once expired).
anchor_tokens = Table(
    "anchor_tokens",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True, autoincrement=False),
    Column("token", Text, nullable=False),
    Column("message_id", BigInteger),  # NULL: the interaction's original response
    Column("expires_at", Real, nullable=False),
    Column("followups", Integer, nullable=False, server_default="0"),  # sent through it
)
Index("anchor_tokens_by_expiry", anchor_tokens.c.expires_at)

# A server's leaderboard seasons (revision 14): numbered from 1; the current one has no end.
seasons = Table(
    "seasons",
    metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("number", Integer, nullable=False),
    Column("started_at", Real, nullable=False),
    Column("ended_at", Real),
    PrimaryKeyConstraint("guild_id", "number"),
)

# The board of each season that ended, as it stood then (its players' totals and ratings).
season_standings = Table(
    "season_standings",
    metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("season", Integer, nullable=False),
    Column("rank", Integer, nullable=False),  # 1 for the top: the board's rating order
    Column("user_id", Text, nullable=False),
    Column("name", Text, nullable=False, server_default=""),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("cards", Integer, nullable=False),
    Column("steals", Integer, nullable=False),
    Column("biggest_steal", Integer, nullable=False),
    Column("mu", Real, nullable=False),
    Column("sigma", Real, nullable=False),
    PrimaryKeyConstraint("guild_id", "season", "rank"),
)
Index(
    "season_standings_by_user",
    season_standings.c.guild_id,
    season_standings.c.user_id,
    season_standings.c.rank,
)

# Tournaments (revision 15): a server's event, its entrants (a member id or an AI entrant
# "bot:<level>:<n>"; a person is stored only once they sign up) and its tables, round by
# round. A round's byes are its row numbered 0 (status "bye"). Each table's game is an
# ordinary game (games.id) played in its thread; `result` is the table's places and cards.
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("name", Text, nullable=False),
    Column("host_id", Text, nullable=False),
    Column("format", Text, nullable=False),
    Column("table_size", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("preset", Text, nullable=False),
    Column("turn_seconds", Integer),
    Column("signup_ends", Real),
    Column("starts_at", Real),
    Column("check_in", Integer, nullable=False, server_default="0"),
    Column("counted", Integer, nullable=False, server_default="1"),
    Column("status", Text, nullable=False),
    Column("round", Integer, nullable=False, server_default="0"),
    Column("seed", BigInteger, nullable=False),
    Column("settings", Text, nullable=False),  # JSON
    Column("message_id", BigInteger),  # the sign-up message
    Column("created_at", Real, nullable=False),
    Column("updated_at", Real, nullable=False),
    CheckConstraint(
        "status IN ('signup', 'running', 'finished', 'cancelled')", name="tournaments_status"
    ),
)
Index("tournaments_by_guild", tournaments.c.guild_id, tournaments.c.id.desc())

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("entrant", Text, nullable=False),
    Column("rating", Real, nullable=False),  # at sign-up, for seeding
    Column("joined_at", Real, nullable=False),
    Column("dropped", Integer, nullable=False, server_default="0"),
    Column("checked_in", Integer, nullable=False, server_default="0"),  # revision 16
    PrimaryKeyConstraint("tournament_id", "entrant"),
)

tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),  # from 1; 0 is the round's byes
    Column("entrants", Text, nullable=False),  # JSON list, in seat order
    Column("thread_id", BigInteger),
    Column("game_id", Integer, ForeignKey("games.id")),
    Column("status", Text, nullable=False),  # bye, seated, playing, done
    Column("result", Text),  # JSON {"places": [...], "cards": [...]}
    PrimaryKeyConstraint("tournament_id", "round", "table_no"),
)
Index("tournament_tables_by_game", tournament_tables.c.game_id)

# The global ladder (revision 18): one openskill rating per person over every rated game
# anywhere (bot/storage/ladder.py); a person is stored once they play one.
global_ratings = Table(
    "global_ratings",
    metadata,
    Column("user_id", Text, primary_key=True),
    Column("games", Integer, nullable=False, server_default="0"),
    Column("wins", Integer, nullable=False, server_default="0"),
    Column("mu", Real, nullable=False),
    Column("sigma", Real, nullable=False),
    Column("rating", Real, nullable=False),  # mu - 3 sigma
)
Index(
    "global_ratings_by_rating",
    global_ratings.c.rating.desc(), global_ratings.c.wins.desc(), global_ratings.c.user_id,
    global_ratings.c.games,  # so a count or a rank reads the index alone (as players_by_*)
    sqlite_where=PLAYED, postgresql_where=PLAYED,
)  # fmt: skip

# Whether a person shows their name on the global ladder (hidden by default: no row), and
# the name they chose to show; written by /steal profile, deleted by /steal forget-me.
profiles = Table(
    "profiles",
    metadata,
    Column("user_id", Text, primary_key=True),
    Column("show_name", Integer, nullable=False, server_default="0"),
    Column("name", Text, nullable=False, server_default=""),
    Column("updated_at", Real, nullable=False),
)

# Every table, parents before children: the order `copy` writes them in. Hand tokens are not
# copied: they expire within minutes, and a copied database starts a new process anyway.
TABLES = (guild_settings, games, moves, history, history_players, players, rated_games,
          stats_backfill, outbox, guild_purges, seasons, season_standings, tournaments,
          tournament_entrants, tournament_tables, global_ratings, profiles)  # fmt: skip
