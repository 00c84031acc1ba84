# messages 的界面文字（简体中文）。
