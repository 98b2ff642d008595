"""What every text-mode example client shares: the screen, the keyboard, a person's match,
a bot's match and the command line. A board game plugs in its rules and drawing."""
