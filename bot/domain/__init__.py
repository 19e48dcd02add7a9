"""What the layers share about players and games that is not a rule of the card game: the plain
values storage returns and the screens show, who sits in a seat, match scoring, ratings, and
the servers' settings. Pure: no Discord, no database."""
