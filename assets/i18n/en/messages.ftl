# messages strings (English).
