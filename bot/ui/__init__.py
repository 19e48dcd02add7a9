"""What users see: custom_ids, card labels, words for rules and moves, embeds and buttons."""
