"""The Discord adapter: the presenter that keeps each game's messages in step with it, the
plumbing every handler shares (answering within 3 seconds, replies, languages, access), the
drawing of hands, and the button families that route clicks to the cogs' handlers. It imports
no cog: the cogs register their handlers here when they load (`buttons.Registry`)."""
