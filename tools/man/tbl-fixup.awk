# SPDX-License-Identifier: MIT
#
# Post-processes rst2man's tables so that man(1) renders them without
# groff warnings on an 80-column terminal:
# - rst2man writes every cell as a tbl text block (T{ ... T}), whose width
#   tbl guesses from the line length; a long word in a narrow block cannot
#   break. A block that holds one word (no blank) becomes a plain entry,
#   so its column gets the word's width; the other blocks still wrap.
# - the vertical rules go (tbl draws them above the first line of a page
#   when a table breaks across pages) and the last column expands (x).

# the format line of a table: "|l|l|l|." -> "l l lx."
intbl && /^\|[a-z|]*\|\.$/ {
	gsub(/\|/, " ")
	sub(/^ /, "")
	sub(/ \.$/, "x.")
	print
	intbl = 0
	next
}

/^\.TS$/ { intbl = 1 }

{
	cur = $0
	while (cur ~ /T\{$/) {
		if ((getline word) <= 0)
			break
		if (word !~ /^[^ \t]+$/ || word ~ /^T\}/) {
			print cur
			cur = word
			continue
		}
		if ((getline after) <= 0) {
			print cur
			cur = word
			break
		}
		if (after !~ /^T\}/) {
			print cur
			print word
			cur = after
			continue
		}
		cur = substr(cur, 1, length(cur) - 2) word substr(after, 3)
	}
	print cur
}
