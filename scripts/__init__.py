"""Scripts run by hand (`python -m scripts.<name>`): screenshots and measurements of the bot
in the local playground, with headless Chromium. The tests never run them. Private `_` modules
are what they share."""
