"""The shared base of the example board games: rules' common words, the Game, the text client."""
